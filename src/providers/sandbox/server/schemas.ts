import { SANDBOX_EVENTS, SANDBOX_FAILURE_MODES, SANDBOX_FAILURE_OPERATIONS } from '../sandbox-api';

const PERSON_SCHEMA = { type: 'object', properties: { document: { type: 'string' }, name: { type: 'string' } } } as const;

/** The JSON schemas of the sandbox's charge routes: Fastify validates requests and writes answers by them. */
export const CHARGE_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    txid: { type: 'string' },
    status: { type: 'string' },
    amount: { type: 'string' },
    currency: { type: 'string' },
    description: { type: ['string', 'null'] },
    externalId: { type: 'string' },
    recipient: PERSON_SCHEMA,
    pixCopiaECola: { type: 'string' },
    notificationUrl: { type: 'string' },
    createdAt: { type: 'string' },
    expiresAt: { type: 'string' },
    paidAt: { type: ['string', 'null'] },
    pix: {
      type: ['object', 'null'],
      properties: { endToEndId: { type: 'string' }, amount: { type: 'string' }, payer: PERSON_SCHEMA, paidAt: { type: 'string' } },
    },
    // Refunds are written as they are (refundToWire), so the schema does not drop their fields.
    refunds: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
} as const;

export const CREATE_BODY_SCHEMA = {
  type: 'object',
  required: ['txid', 'amount', 'currency', 'externalId', 'recipient', 'expiresIn', 'notificationUrl'],
  properties: {
    // BCB: a txid is 26 to 35 characters of [a-zA-Z0-9].
    txid: { type: 'string', pattern: '^[a-zA-Z0-9]{26,35}$' },
    // BR Code field 54 holds at most 13 characters.
    amount: { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$' },
    currency: { type: 'string', enum: ['BRL'] },
    description: { type: ['string', 'null'], maxLength: 140 },
    externalId: { type: 'string', minLength: 1, maxLength: 64 },
    recipient: {
      type: 'object',
      required: ['document', 'name'],
      properties: {
        // A CPF, or a CNPJ: 12 letters or digits and 2 check digits (alphanumeric since July 2026).
        document: { type: 'string', pattern: '^(\\d{11}|[0-9A-Z]{12}\\d{2})$' },
        name: { type: 'string', minLength: 1, maxLength: 140 },
      },
    },
    expiresIn: { type: 'integer', minimum: 1, maximum: 30 * 24 * 3600 },
    notificationUrl: { type: 'string', pattern: '^https?://', maxLength: 2048 },
    webhookSecret: { type: 'string', minLength: 16, maxLength: 256 },
  },
} as const;

export const SIMULATE_BODY_SCHEMA = {
  type: 'object',
  required: ['event'],
  properties: {
    event: { type: 'string', enum: SANDBOX_EVENTS },
    amount: { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$' },
  },
} as const;

export const FAILURES_BODY_SCHEMA = {
  type: 'object',
  required: ['mode'],
  properties: {
    mode: { type: 'string', enum: SANDBOX_FAILURE_MODES },
    count: { type: 'integer', minimum: 1, maximum: 10_000, default: 1 },
    operation: { type: 'string', enum: SANDBOX_FAILURE_OPERATIONS, default: 'any' },
  },
} as const;

export const ID_PARAMS_SCHEMA = { type: 'object', properties: { id: { type: 'string', minLength: 1, maxLength: 64 } } } as const;

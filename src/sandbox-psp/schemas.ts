import { DAY_COUNTS, EARLY_DISCOUNT_TYPES, FINE_TYPES, FIXED_DISCOUNT_TYPES, INTEREST_TYPES, MAX_DAYS_AFTER_DUE, MAX_DISCOUNT_DATES, ABATEMENT_TYPES } from '../domain/due-charge';
import { FREQUENCIES, JOURNEYS, RETRY_POLICIES } from '../domain/recurrence';
import { SANDBOX_BATCH_MAX_CHARGES } from '../common/sandbox-wire/sandbox-due-api';
import { SANDBOX_EVENTS, SANDBOX_FAILURE_MODES, SANDBOX_FAILURE_OPERATIONS } from '../common/sandbox-wire/sandbox-api';
import { SANDBOX_RECURRENCE_ACTIONS, SANDBOX_RECURRING_CHARGE_ACTIONS } from '../common/sandbox-wire/sandbox-recurring-api';

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
    // A due-date charge's terms and address, written as they are (dueTermsToWire).
    due: { type: 'object', additionalProperties: true },
    amountDue: { type: 'string' },
    recipientAddress: { type: 'object', additionalProperties: true },
    batchId: { type: 'string' },
  },
} as const;

// ---- Due-date charges (docs/sandbox.md, Due-date charges) ------------------------------------

/** A value in hundredths on the wire: reais or percent, two places. */
const HUNDREDTHS = { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$' } as const;
const CALENDAR_DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
const nullable = <T extends object>(schema: T) => ({ anyOf: [schema, { type: 'null' }], default: null }) as const;

/**
 * The terms (SandboxDueTermsWire). No `additionalProperties: false` inside the discount's two kinds:
 * with Fastify's removeAdditional, the first kind tried would strip the second's members.
 */
export const DUE_SCHEMA = {
  type: 'object',
  required: ['date', 'daysAfterDue'],
  properties: {
    date: CALENDAR_DATE,
    daysAfterDue: { type: 'integer', minimum: 0, maximum: MAX_DAYS_AFTER_DUE },
    fine: nullable({ type: 'object', required: ['type', 'value'], properties: { type: { type: 'string', enum: FINE_TYPES }, value: HUNDREDTHS } }),
    interest: nullable({
      type: 'object',
      required: ['type', 'days', 'value'],
      properties: { type: { type: 'string', enum: INTEREST_TYPES }, days: { type: 'string', enum: DAY_COUNTS }, value: HUNDREDTHS },
    }),
    discount: nullable({
      anyOf: [
        {
          type: 'object',
          required: ['type', 'until'],
          properties: {
            type: { type: 'string', enum: FIXED_DISCOUNT_TYPES },
            until: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_DISCOUNT_DATES,
              items: { type: 'object', required: ['date', 'value'], properties: { date: CALENDAR_DATE, value: HUNDREDTHS } },
            },
          },
        },
        {
          type: 'object',
          required: ['type', 'days', 'value'],
          properties: { type: { type: 'string', enum: EARLY_DISCOUNT_TYPES }, days: { type: 'string', enum: DAY_COUNTS }, value: HUNDREDTHS },
        },
      ],
    }),
    abatement: nullable({ type: 'object', required: ['type', 'value'], properties: { type: { type: 'string', enum: ABATEMENT_TYPES }, value: HUNDREDTHS } }),
  },
} as const;

/** The payer's address; the BCB's `devedor.logradouro` and `cidade` are at most 200 characters, `uf` two letters, `cep` eight digits. */
export const ADDRESS_SCHEMA = {
  type: 'object',
  required: ['street', 'city', 'state', 'zip'],
  properties: {
    street: { type: 'string', minLength: 1, maxLength: 200 },
    city: { type: 'string', minLength: 1, maxLength: 200 },
    state: { type: 'string', pattern: '^[A-Z]{2}$' },
    zip: { type: 'string', pattern: '^\\d{8}$' },
  },
} as const;

export const CREATE_BODY_SCHEMA = {
  type: 'object',
  // `expiresIn` too, but for a due-date charge (checked by the route).
  required: ['txid', 'amount', 'currency', 'externalId', 'recipient', 'notificationUrl'],
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
    due: DUE_SCHEMA,
    recipientAddress: ADDRESS_SCHEMA,
    notificationUrl: { type: 'string', pattern: '^https?://', maxLength: 2048 },
    webhookSecret: { type: 'string', minLength: 16, maxLength: 256 },
  },
} as const;

export const CHANGE_BODY_SCHEMA = {
  type: 'object',
  required: ['amount', 'due'],
  properties: { amount: HUNDREDTHS, due: DUE_SCHEMA },
} as const;

/** One charge of a batch: a create body with `due`, without `expiresIn` (SandboxBatchChargeBody). */
const BATCH_CHARGE_SCHEMA = {
  ...CREATE_BODY_SCHEMA,
  required: [...CREATE_BODY_SCHEMA.required, 'due'],
  properties: (({ expiresIn: _expiresIn, ...rest }) => rest)(CREATE_BODY_SCHEMA.properties),
} as const;

export const BATCH_BODY_SCHEMA = {
  type: 'object',
  required: ['description', 'charges'],
  properties: {
    description: { type: 'string', minLength: 1, maxLength: 140 },
    charges: { type: 'array', minItems: 1, maxItems: SANDBOX_BATCH_MAX_CHARGES, items: BATCH_CHARGE_SCHEMA },
  },
} as const;

/** A batch's id: the client's (the gateway's), as a refund's is. */
export const BATCH_PARAMS_SCHEMA = { type: 'object', properties: { id: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' } } } as const;

export const BATCH_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    description: { type: 'string' },
    createdAt: { type: 'string' },
    charges: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          txid: { type: 'string' },
          status: { type: 'string' },
          problem: { type: ['object', 'null'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
        },
      },
    },
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

// ---- Pix Automático (recurrence-routes.ts) ---------------------------------------------------

const AMOUNT = { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$' } as const;
const DATE = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;
// BCB: a txid is 26 to 35 characters of [a-zA-Z0-9].
const TXID = { type: 'string', pattern: '^[a-zA-Z0-9]{26,35}$' } as const;
const NOTIFICATION_URL = { type: 'string', pattern: '^https?://', maxLength: 2048 } as const;
const WEBHOOK_SECRET = { type: 'string', minLength: 16, maxLength: 256 } as const;

export const CREATE_RECURRENCE_SCHEMA = {
  type: 'object',
  required: ['recurrenceId', 'contract', 'debtor', 'frequency', 'startDate', 'retryPolicy', 'journey', 'expiresIn', 'notificationUrl'],
  properties: {
    recurrenceId: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' },
    contract: {
      type: 'object',
      required: ['id'],
      // The Pix API's `vinculo.contrato` is at most 35 characters (https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml).
      properties: { id: { type: 'string', minLength: 1, maxLength: 35 }, description: { type: ['string', 'null'], maxLength: 140 } },
    },
    debtor: CREATE_BODY_SCHEMA.properties.recipient,
    frequency: { type: 'string', enum: FREQUENCIES },
    amount: { anyOf: [AMOUNT, { type: 'null' }] },
    minimumAmount: { anyOf: [AMOUNT, { type: 'null' }] },
    startDate: DATE,
    endDate: { anyOf: [DATE, { type: 'null' }] },
    retryPolicy: { type: 'string', enum: RETRY_POLICIES },
    journey: { type: 'string', enum: JOURNEYS },
    firstPaymentTxid: { anyOf: [TXID, { type: 'null' }] },
    payerAccount: {
      anyOf: [
        {
          type: 'object',
          required: ['ispbParticipante', 'conta'],
          properties: {
            ispbParticipante: { type: 'string', pattern: '^\\d{8}$' },
            agencia: { type: 'string', pattern: '^\\d{1,4}$' },
            conta: { type: 'string', pattern: '^[0-9a-zA-Z]{1,20}$' },
            cidadeCodigo: { type: 'string', pattern: '^\\d{7}$' },
          },
        },
        { type: 'null' },
      ],
    },
    // The payer has up to 30 days to authorize.
    expiresIn: { type: 'integer', minimum: 1, maximum: 30 * 24 * 3600 },
    notificationUrl: NOTIFICATION_URL,
    webhookSecret: WEBHOOK_SECRET,
  },
} as const;

export const CREATE_RECURRING_CHARGE_SCHEMA = {
  type: 'object',
  required: ['recurrenceId', 'dueDate', 'amount', 'receiverAccount', 'notificationUrl'],
  properties: {
    recurrenceId: { type: 'string', minLength: 1, maxLength: 64 },
    dueDate: DATE,
    amount: AMOUNT,
    description: { type: ['string', 'null'], maxLength: 140 },
    receiverAccount: {
      type: 'object',
      required: ['agencia', 'conta', 'tipoConta'],
      properties: {
        agencia: { type: 'string', pattern: '^\\d{1,4}$' },
        conta: { type: 'string', pattern: '^[0-9a-zA-Z]{1,20}$' },
        tipoConta: { type: 'string', enum: ['CORRENTE', 'POUPANCA', 'PAGAMENTO'] },
      },
    },
    notificationUrl: NOTIFICATION_URL,
    webhookSecret: WEBHOOK_SECRET,
  },
} as const;

export const RECURRENCE_SIMULATE_SCHEMA = {
  type: 'object',
  required: ['action'],
  properties: { action: { type: 'string', enum: SANDBOX_RECURRENCE_ACTIONS } },
} as const;

export const RECURRING_CHARGE_SIMULATE_SCHEMA = {
  type: 'object',
  required: ['action'],
  properties: { action: { type: 'string', enum: SANDBOX_RECURRING_CHARGE_ACTIONS }, reason: { type: 'string', minLength: 1, maxLength: 140 } },
} as const;

export const TXID_PARAMS_SCHEMA = { type: 'object', properties: { txid: TXID } } as const;
export const RETRY_PARAMS_SCHEMA = { type: 'object', properties: { txid: TXID, date: DATE } } as const;

import { generateSchema, type OpenAPIObject } from '@nestjs/swagger';
import type { EventDoc } from './deliveries/event-body';
import { TEST_EVENT_DOCS, TEST_EVENT_TYPE } from './deliveries/test-event-body';
import type { MerchantEventType } from './domain/provider-event';
import type { RecurrenceEventType, RecurringChargeEventType } from './domain/recurrence';
import { PAYMENT_EVENT_DOCS } from './payments/lifecycle/payment-event-bodies';
import { REFUND_EVENT_DOCS } from './payments/refunds/refund-event-bodies';
import { RECURRENCE_EVENT_DOCS, RECURRING_CHARGE_EVENT_DOCS } from './recurrences/recurrence-event-bodies';

type SchemaNode = Record<string, unknown>;

/** Every event type the gateway sends, documented by the feature that sends it; a type added to a domain list and not documented does not compile. */
export const EVENT_DOCS: Readonly<Record<MerchantEventType | RecurrenceEventType | RecurringChargeEventType | typeof TEST_EVENT_TYPE, EventDoc>> = {
  ...PAYMENT_EVENT_DOCS,
  ...REFUND_EVENT_DOCS,
  ...RECURRENCE_EVENT_DOCS,
  ...RECURRING_CHARGE_EVENT_DOCS,
  ...TEST_EVENT_DOCS,
};

export const WEBHOOKS_TAG = {
  name: 'webhooks',
  description:
    "The events the gateway POSTs to the merchant's `webhook_url` (docs/webhooks.md): `{event, id, created_at, data}`, one schema per event type, " +
    'signed with Standard Webhooks when the merchant has a signing secret. Answer 2xx; anything else is retried.',
};

/** The headers every delivery carries (DeliverySender.headers; docs/webhooks.md, What arrives). */
const SIGNED = 'Sent when the merchant has a signing secret (set one: without it anyone who learns the URL can post to it).';
const HEADERS = [
  {
    name: 'webhook-id',
    description: `Standard Webhooks: the delivery's id (\`dlv_…\`; a test event's \`evt_…\`), the same on every retry and redelivery. Deliveries are at least once: skip an id already processed. ${SIGNED}`,
    example: 'dlv_3kTMd9Q2xLr8VbN1cZp4Wf7A',
    signed: true,
  },
  {
    name: 'webhook-timestamp',
    description: `Standard Webhooks: unix seconds when this attempt was signed. Refuse one more than 5 minutes from your clock. ${SIGNED}`,
    example: '1795694460',
    signed: true,
    pattern: '^[0-9]+$',
  },
  {
    name: 'webhook-signature',
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>`, the key being the base64-decoded part of a `whsec_…` secret ' +
      `or the UTF-8 bytes of any other. Any Standard Webhooks library verifies it; verify the raw bytes, never re-serialised JSON. ${SIGNED}`,
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    signed: true,
    pattern: '^v1,',
  },
  { name: 'X-Webhook-Signature', description: `The same value as \`webhook-signature\`. ${SIGNED}`, example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=', signed: true },
  { name: 'X-Webhook-Event', description: 'The `event` of the body.', example: 'payment.confirmed', signed: false },
  { name: 'X-Webhook-Source', description: 'The provider that reported the event (`gateway` for a test event).', example: 'efi', signed: false },
  {
    name: 'X-Request-Id',
    description: 'The id of the request in which the gateway received the event; the same on every retry. Quote it to support.',
    example: '8b0e5e0c-3f0a-4f7e-9a51-2f1d2c6b7a90',
    signed: false,
  },
] as const;

const RESPONSES = {
  '2XX': { description: 'Delivered: any 2xx within 10 seconds. The body is ignored.' },
  '410': { description: 'Gone: the delivery fails at once, with no further retries.' },
  default: {
    description:
      'Anything else (another status, a 3xx: redirects are not followed, a timeout, a refused connection) is retried: after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, ' +
      'then the delivery fails. A `Retry-After` (seconds or an HTTP date, at most a day) on the answer is waited for first.',
  },
};

/**
 * The events the gateway sends merchants, as the document's `webhooks` (docs/webhooks.md): one
 * entry per event type, whose request body is that type's schema, with the delivery's headers and
 * what the merchant's answer means. The schemas join `components.schemas`.
 */
export function addEventWebhooks(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  for (const [name, schema] of Object.entries(eventSchemas(Object.values(EVENT_DOCS).map((doc) => doc.schema)))) {
    // A view the API answers with is already there, from the same class: keep it as the document has it.
    schemas[name] ??= schema;
  }
  const webhooks = Object.fromEntries(
    Object.entries(EVENT_DOCS).map(([type, doc]) => [
      type,
      {
        post: {
          operationId: operationId(type),
          summary: doc.summary,
          description: doc.description,
          tags: [WEBHOOKS_TAG.name],
          // No scheme of the gateway's: the merchant checks the Standard Webhooks signature in the headers.
          security: [],
          parameters: HEADERS.map((header) => ({
            name: header.name,
            in: 'header',
            required: !header.signed,
            description: header.description,
            schema: 'pattern' in header ? { type: 'string', pattern: header.pattern } : { type: 'string' },
            example: header.name === 'X-Webhook-Event' ? type : header.example,
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${doc.schema.name}` }, example: doc.example } },
          },
          responses: RESPONSES,
        },
      },
    ]),
  );
  const tagGroups = (document as { 'x-tagGroups'?: { name: string; tags: string[] }[] })['x-tagGroups'];
  return {
    ...document,
    components: { ...document.components, schemas },
    tags: [...(document.tags ?? []), WEBHOOKS_TAG],
    ...(tagGroups ? { 'x-tagGroups': [...tagGroups, { name: 'Webhooks (sent to merchants)', tags: [WEBHOOKS_TAG.name] }] } : {}),
    webhooks,
  } as OpenAPIObject;
}

/** `payment.partially_refunded` → `onPaymentPartiallyRefunded`. */
export function operationId(type: string): string {
  return `on${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}`;
}

/**
 * The schemas of `classes` and of what they name, from their @ApiProperty decorators. The scan of
 * the controllers turns `nullable: true` into OpenAPI 3.1's forms; these are not scanned, so the
 * same is done here: `type: [T, 'null']`, `null` among an enum's values, `anyOf: [{$ref}, {type: 'null'}]`.
 */
function eventSchemas(classes: readonly { name: string }[]): Record<string, SchemaNode> {
  let schemas: Record<string, SchemaNode> = {};
  for (const type of classes) schemas = generateSchema(type as never, schemas as never).schemas as Record<string, SchemaNode>;
  for (const schema of Object.values(schemas)) nullableToOas31(schema);
  return schemas;
}

function nullableToOas31(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) nullableToOas31(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as SchemaNode;
  for (const [key, value] of Object.entries(schema)) {
    // Values, not schemas.
    if (key === 'example' || key === 'examples' || key === 'enum' || key === 'default' || key === 'const') continue;
    // Names, not schemas: a property may be called `nullable`.
    if (key === 'properties') for (const property of Object.values(value as object)) nullableToOas31(property);
    else nullableToOas31(value);
  }
  if (typeof schema.nullable !== 'boolean') return;
  const nullable = schema.nullable;
  delete schema.nullable;
  if (!nullable) return;
  const combinator = (['allOf', 'oneOf', 'anyOf'] as const).find((key) => Array.isArray(schema[key]));
  if (typeof schema.$ref === 'string' || combinator) {
    const inner: SchemaNode = {};
    if (typeof schema.$ref === 'string') inner.$ref = schema.$ref;
    if (combinator) inner[combinator] = schema[combinator];
    delete schema.$ref;
    if (combinator) delete schema[combinator];
    schema.anyOf = [inner, { type: 'null' }];
    return;
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as unknown[]) : [schema.type];
    if (!types.includes('null')) schema.type = [...types, 'null'];
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...(schema.enum as unknown[]), null];
}

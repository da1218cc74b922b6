import type { Type } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { EventDoc } from './deliveries/event-body';
import { TEST_EVENT_DOCS, TEST_EVENT_TYPE } from './deliveries/test-event-body';
import type { MerchantEventType } from './domain/provider-event';
import type { RecurrenceEventType, RecurringChargeEventType } from './domain/recurrence';
import { PAYMENT_BATCH_EVENT_DOCS, type PaymentBatchEventType } from './payment-batches/payment-batch-event-bodies';
import { PAYMENT_EVENT_DOCS } from './payments/lifecycle/payment-event-bodies';
import { REFUND_EVENT_DOCS } from './payments/refunds/refund-event-bodies';
import { RECURRENCE_EVENT_DOCS, RECURRING_CHARGE_EVENT_DOCS } from './recurrences/recurrence-event-bodies';

/** Every event type the gateway sends, documented by the feature that sends it; a type added to a domain list and not documented does not compile. */
export const EVENT_DOCS: Readonly<Record<MerchantEventType | RecurrenceEventType | RecurringChargeEventType | PaymentBatchEventType | typeof TEST_EVENT_TYPE, EventDoc>> = {
  ...PAYMENT_EVENT_DOCS,
  ...REFUND_EVENT_DOCS,
  ...RECURRENCE_EVENT_DOCS,
  ...RECURRING_CHARGE_EVENT_DOCS,
  ...PAYMENT_BATCH_EVENT_DOCS,
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

/** The schema classes of the events' bodies: the document is built with them as extra models, so they are scanned (and made 3.1) with the rest. */
export const EVENT_MODELS: readonly Type<unknown>[] = Object.values(EVENT_DOCS).map((doc) => doc.schema);

/**
 * The events the gateway sends merchants, as the document's `webhooks` (docs/webhooks.md): one
 * entry per event type, whose request body is that type's schema (in `components.schemas`, from
 * EVENT_MODELS), with the delivery's headers and what the merchant's answer means.
 */
export function addEventWebhooks(document: OpenAPIObject): OpenAPIObject {
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
  return { ...document, webhooks } as OpenAPIObject;
}

/** `payment.partially_refunded` → `onPaymentPartiallyRefunded`. */
function operationId(type: string): string {
  return `on${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}`;
}

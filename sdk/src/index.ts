// The merchant SDK: a thin layer over the functions and types @hey-api/openapi-ts generates from the
// gateway's OpenAPI document (./generated, `npm run sdk:generate`). It adds what the document cannot
// say: the merchant's key on every call, an Idempotency-Key chosen once per logical request and kept
// across retries, the retries themselves, typed errors, and webhook verification (sdk/README.md).
import { createClient, createConfig, type Client } from './generated/client/index.js';
import {
  cancelPayment,
  cancelRecurrence,
  cancelRecurringCharge,
  createPayment,
  createPaymentBatch,
  createPaymentLink,
  createRecurrence,
  createRecurringCharge,
  deactivatePaymentLink,
  getCurrentApiKey,
  getPayment,
  getPaymentBatch,
  getPaymentLink,
  getRecurrence,
  getRecurringCharge,
  getRefund,
  listPaymentBatches,
  listPaymentLinks,
  listPayments,
  listRecurrences,
  listRecurringCharges,
  listRefunds,
  refundPayment,
  updatePayment,
} from './generated/sdk.gen.js';
import type {
  CreatePaymentBatchData,
  CreatePaymentData,
  CreatePaymentLinkData,
  CreateRecurrenceData,
  CreateRecurringChargeData,
  ListPaymentBatchesData,
  ListPaymentLinksData,
  ListPaymentsData,
  ListRecurrencesData,
  RefundPaymentData,
  UpdatePaymentData,
} from './generated/types.gen.js';
import { send, type RetryPolicy } from './transport.js';

export { PixGatewayError, PixGatewayNetworkError, PixGatewayWebhookError, type PixGatewayErrorFields } from './errors.js';
export type { PixGatewayResponse } from './transport.js';
export { verifyWebhook, type WebhookEvent, type WebhookHeaders } from './webhooks.js';
// Every schema of the merchant's API by its document name (PaymentView, CreatePaymentDto, ErrorCode…),
// with each operation's request and answer types (CreatePaymentData, GetPaymentResponses…).
export type * from './generated/types.gen.js';

export interface PixGatewayOptions {
  /** The gateway's address, e.g. `https://pix.example.com` (its PUBLIC_BASE_URL). */
  baseUrl: string;
  /** The merchant's API key (`mk_…`), sent as X-Merchant-Key. */
  merchantKey: string;
  /** A fetch of your own (a proxy agent, instrumentation); the global fetch by default. */
  fetch?: typeof globalThis.fetch;
  /** Attempts after the first for a call that failed in a way a retry can fix; 2 by default, 0 to never retry. */
  maxRetries?: number;
  /** Each attempt's deadline in milliseconds; 30 000 by default. */
  timeoutMs?: number;
}

/** For the calls that create something: the Idempotency-Key to send, to retry a logical request across restarts. */
export interface IdempotencyOptions {
  /** One value per logical request (1–255 printable ASCII); a fresh UUID, kept across the SDK's retries, when left out. */
  idempotencyKey?: string;
}

/**
 * The merchant API of a Pix Gateway. Each call resolves to the envelope's `data` with its
 * `requestId` and `provider` (PixGatewayResponse), or throws a PixGatewayError.
 */
export class PixGateway {
  readonly payments;
  readonly paymentBatches;
  readonly paymentLinks;
  readonly refunds;
  readonly recurrences;
  readonly recurringCharges;
  readonly apiKeys;

  constructor(options: PixGatewayOptions) {
    const client: Client = createClient(createConfig({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: options.fetch, auth: options.merchantKey }));
    const policy: RetryPolicy = { maxRetries: options.maxRetries ?? 2, timeoutMs: options.timeoutMs ?? 30_000 };
    const key = (given: IdempotencyOptions) => given.idempotencyKey ?? crypto.randomUUID();

    this.payments = {
      /** `POST /v1/payments/create`: a Pix charge with its BR Code and QR image (201). */
      create: (body: CreatePaymentData['body'], options: IdempotencyOptions = {}) => {
        const headers = { 'Idempotency-Key': key(options) };
        return send((signal) => createPayment({ client, body, headers, signal }), policy);
      },
      /** `GET /v1/payments/{id}`: 404 NOT_FOUND for an id that is not the merchant's. */
      get: (id: string) => send((signal) => getPayment({ client, path: { id }, signal }), policy),
      /** `GET /v1/payments`: newest first, `{items, next_cursor}`; pass `cursor: next_cursor` for the next page. */
      list: (query: ListPaymentsData['query'] = {}) => send((signal) => listPayments({ client, query, signal }), policy),
      /** `POST /v1/payments/{id}/refunds`: everything left unless `amount` says less (201, `pending` until the PSP settles it). */
      refund: (id: string, body: RefundPaymentData['body'] = {}, options: IdempotencyOptions = {}) => {
        const headers = { 'Idempotency-Key': key(options) };
        return send((signal) => refundPayment({ client, path: { id }, body, headers, signal }), policy);
      },
      /** `GET /v1/payments/{id}/refunds`: the payment's refunds, oldest first. */
      listRefunds: (id: string) => send((signal) => listRefunds({ client, path: { id }, signal }), policy),
      /** `POST /v1/payments/{id}/cancel`: a pending payment, cancelled at the PSP; one already cancelled answers as it is. */
      cancel: (id: string) => send((signal) => cancelPayment({ client, path: { id }, signal }), policy),
      /** `PATCH /v1/payments/{id}`: a pending due-date charge's new amount or terms (`due` replaces them whole); the BR Code stays (200). */
      update: (id: string, body: UpdatePaymentData['body'], options: IdempotencyOptions = {}) => {
        const headers = { 'Idempotency-Key': key(options) };
        return send((signal) => updatePayment({ client, path: { id }, body, headers, signal }), policy);
      },
    };
    this.paymentBatches = {
      /** `POST /v1/payment-batches`: up to 1,000 due-date charges, all checked first, made in the background (202). */
      create: (body: CreatePaymentBatchData['body'], options: IdempotencyOptions = {}) => {
        const headers = { 'Idempotency-Key': key(options) };
        return send((signal) => createPaymentBatch({ client, body, headers, signal }), policy);
      },
      /** `GET /v1/payment-batches/{id}`: its counts and each item's outcome. */
      get: (id: string) => send((signal) => getPaymentBatch({ client, path: { id }, signal }), policy),
      /** `GET /v1/payment-batches`: newest first, `{items, next_cursor}` (without their items). */
      list: (query: ListPaymentBatchesData['query'] = {}) => send((signal) => listPaymentBatches({ client, query, signal }), policy),
    };
    this.paymentLinks = {
      /** `POST /v1/payment-links`: a reusable page (`url`) where payers pay a fixed amount or one within `amountRange` (201). */
      create: (body: CreatePaymentLinkData['body'], options: IdempotencyOptions = {}) => {
        const headers = { 'Idempotency-Key': key(options) };
        return send((signal) => createPaymentLink({ client, body, headers, signal }), policy);
      },
      /** `GET /v1/payment-links/{id}`: its `state` and counts, read from its payments (`payments.list({ paymentLinkId })` lists them). */
      get: (id: string) => send((signal) => getPaymentLink({ client, path: { id }, signal }), policy),
      /** `GET /v1/payment-links`: newest first, `{items, next_cursor}`; `active: 'true' | 'false'` filters. */
      list: (query: ListPaymentLinksData['query'] = {}) => send((signal) => listPaymentLinks({ client, query, signal }), policy),
      /** `POST /v1/payment-links/{id}/deactivate`: for good; one already inactive answers as it is. */
      deactivate: (id: string) => send((signal) => deactivatePaymentLink({ client, path: { id }, signal }), policy),
    };
    this.refunds = {
      /** `GET /v1/refunds/{id}`. */
      get: (id: string) => send((signal) => getRefund({ client, path: { id }, signal }), policy),
    };
    this.recurrences = {
      /** `POST /v1/recurrences`: a Pix Automático recurrence, `pending_authorization` until the payer answers (201). */
      create: (body: CreateRecurrenceData['body'], options: IdempotencyOptions = {}) => {
        const headers = { 'Idempotency-Key': key(options) };
        return send((signal) => createRecurrence({ client, body, headers, signal }), policy);
      },
      /** `GET /v1/recurrences/{id}`. */
      get: (id: string) => send((signal) => getRecurrence({ client, path: { id }, signal }), policy),
      /** `GET /v1/recurrences`: newest first, `{items, next_cursor}`. */
      list: (query: ListRecurrencesData['query'] = {}) => send((signal) => listRecurrences({ client, query, signal }), policy),
      /** `POST /v1/recurrences/{id}/cancel`: with its charges not yet attempted; one already cancelled answers as it is. */
      cancel: (id: string) => send((signal) => cancelRecurrence({ client, path: { id }, signal }), policy),
      /** `POST /v1/recurrences/{id}/charges`: one cycle's charge of an active recurrence (201, `scheduled`). */
      createCharge: (id: string, body: CreateRecurringChargeData['body'], options: IdempotencyOptions = {}) => {
        const headers = { 'Idempotency-Key': key(options) };
        return send((signal) => createRecurringCharge({ client, path: { id }, body, headers, signal }), policy);
      },
      /** `GET /v1/recurrences/{id}/charges`: `{items}`, oldest due date first. */
      listCharges: (id: string) => send((signal) => listRecurringCharges({ client, path: { id }, signal }), policy),
    };
    this.recurringCharges = {
      /** `GET /v1/recurring-charges/{id}`. */
      get: (id: string) => send((signal) => getRecurringCharge({ client, path: { id }, signal }), policy),
      /** `POST /v1/recurring-charges/{id}/cancel`: before its due date only; one already cancelled answers as it is. */
      cancel: (id: string) => send((signal) => cancelRecurringCharge({ client, path: { id }, signal }), policy),
    };
    this.apiKeys = {
      /** `GET /v1/api-keys/current`: the calling key's id, prefix, creation and last use. */
      current: () => send((signal) => getCurrentApiKey({ client, signal }), policy),
    };
  }
}

import { reaisToCents } from '../../../domain/money';
import { isRefundEvent, PROVIDER_EVENT_TYPES, type ProviderEvent, type ProviderEventType, refundEventType } from '../../../domain/provider-event';
import { SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from '../../../common/sandbox-wire/sandbox-signature';
import { type InboundCallback, WebhookAuthError, WebhookParseError } from '../../provider-adapter';
import { readSandboxPix, readSandboxRefund } from '../wire';
import { sandboxRefundReport } from './refund';

/**
 * A callback's signature over its raw body (docs/api.md, The sandbox signature scheme), checked
 * before anything reads the body's meaning: with the account's secret; without one, unsigned
 * callbacks are accepted by design, but only outside production, where nobody may move a payment
 * with an unauthenticated request. WebhookAuthError when it does not hold.
 */
export function assertSigned(request: InboundCallback, secret: string | undefined, isProduction: boolean): void {
  const verified = secret === undefined ? !isProduction : verifySandboxSignature(header(request.headers, SANDBOX_SIGNATURE_HEADER), request.rawBody, secret);
  if (!verified) throw new WebhookAuthError('The sandbox signature is missing or wrong.');
}

function header(headers: InboundCallback['headers'], name: string): string | string[] | undefined {
  if (name in headers) return headers[name];
  // Node lower-cases header names; a hand-built request might not.
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const MAX_ID_LENGTH = 200;
const MAX_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A callback of the simulated PSP (`{event, id, created_at?, data:{id, amount, …}}`, docs/sandbox.md) into the closed
 * ProviderEvent type. Reads the parsed body when the host parsed one, else the raw bytes.
 */
export function parseSandboxEvent(body: unknown, rawBody?: Buffer): ProviderEvent {
  const value = body === undefined && rawBody !== undefined ? parseJson(rawBody.toString('utf8')) : body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WebhookParseError('The event must be a JSON object.', 'body');
  const event = value as Record<string, unknown>;
  if (typeof event.event !== 'string') throw new WebhookParseError('event is required.', 'event');
  if (!(PROVIDER_EVENT_TYPES as readonly string[]).includes(event.event)) {
    throw new WebhookParseError(`Unknown event kind "${event.event.slice(0, 64)}".`, 'event');
  }
  const id = requiredId(event.id, 'id');
  let occurredAt = new Date();
  if (event.created_at !== undefined && event.created_at !== null) {
    const date = typeof event.created_at === 'string' ? new Date(event.created_at) : new Date(Number.NaN);
    // Years outside 1970–9999 are no event's time, and some (-100000) are outside what PostgreSQL
    // can store: refused here rather than failing the transaction that would apply the event.
    if (Number.isNaN(date.getTime()) || date.getTime() < 0 || date.getTime() > MAX_TIMESTAMP_MS) {
      throw new WebhookParseError('created_at must be an ISO 8601 timestamp between 1970 and 9999.', 'created_at');
    }
    occurredAt = date;
  }
  if (typeof event.data !== 'object' || event.data === null || Array.isArray(event.data)) throw new WebhookParseError('data must be an object.', 'data');
  const data = event.data as Record<string, unknown>;
  const paymentRef = requiredId(data.id, 'data.id');
  if (typeof data.amount !== 'number') throw new WebhookParseError('data.amount must be a number (reais).', 'data.amount');
  const amountCents = reaisToCents(data.amount);
  if (amountCents === undefined) throw new WebhookParseError('data.amount must be a non-negative amount with at most 2 decimal places.', 'data.amount');
  const type = event.event as ProviderEventType;
  if (!isRefundEvent(type)) {
    // The paying Pix comes with a confirmation only: it is kept on the payment when it becomes paid.
    const pix = type === 'payment.confirmed' ? readSandboxPix(data.pix) : null;
    if (typeof pix === 'string') throw new WebhookParseError(`data.${pix}.`, 'data.pix');
    return { eventId: id, type, paymentRef, amountCents, occurredAt, ...(pix ? { pix } : {}) };
  }
  return { ...refundEvent(type, data.refund), paymentRef, occurredAt };
}

/**
 * A refund event's report, from `data.refund` (the simulated PSP's refund, docs/sandbox.md). Its id is the
 * refund's and the status's, whatever the body's id: the same report twice is one event for the core.
 */
function refundEvent(type: ProviderEventType, value: unknown): Pick<ProviderEvent, 'eventId' | 'type' | 'amountCents' | 'refund'> {
  const refund = readSandboxRefund(value);
  if (typeof refund === 'string') throw new WebhookParseError(`data.refund: ${refund}.`, 'data.refund');
  const report = sandboxRefundReport(refund);
  if (refundEventType(report.status) !== type) throw new WebhookParseError(`A ${type} event cannot report a refund ${refund.status}.`, 'data.refund.status');
  return { eventId: `sandbox:refund:${report.providerRefundId}:${report.status}`, type, amountCents: report.amountCents, refund: report };
}

function requiredId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new WebhookParseError(`${field} must be a non-empty string.`, field);
  if (value.length > MAX_ID_LENGTH) throw new WebhookParseError(`${field} must be at most ${MAX_ID_LENGTH} characters.`, field);
  return value;
}

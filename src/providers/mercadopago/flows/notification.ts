import type { ProviderEvent, ProviderEventType } from '../../../domain/provider-event';
import type { PaymentStatus } from '../../../domain/payment-status';
import { type InboundWebhook, type ProviderCharge, WebhookAuthError, WebhookParseError } from '../../provider-adapter';
import { type SignatureFailure, verifySignature } from '../signature';
import { idOf, type MpPayment } from '../wire';

/**
 * A Mercado Pago notification: `POST <notification_url>?data.id=<id>&type=<topic>` with a body
 * `{action, type, data: {id}, …}`, signed in `x-signature` (signature.ts). It carries only an id:
 * what happened is read back from the API.
 */
export interface Notification {
  /** `type` (the topic): `payment`, `merchant_order`, … */
  topic: string | null;
  /** `data.id` from the query string: the part of it the signature covers. */
  dataId: string | null;
  requestId: string | null;
  signature: string | null;
}

function header(request: InboundWebhook, name: string): string | null {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : null;
}

/** What a notification says about itself; the body is read only for its topic when the query has none. */
export function readNotification(request: InboundWebhook): Notification {
  let topic = request.query.type ?? request.query.topic ?? null;
  if (topic === null && request.rawBody.length > 0) {
    try {
      const body = JSON.parse(request.rawBody.toString('utf8')) as unknown;
      if (typeof body === 'object' && body !== null && typeof (body as { type?: unknown }).type === 'string') topic = (body as { type: string }).type;
    } catch {
      // The body is not signed and not needed: a notification whose body does not parse is judged by its query.
    }
  }
  return { topic, dataId: request.query['data.id'] || null, requestId: header(request, 'x-request-id'), signature: header(request, 'x-signature') };
}

const FAILURES: Record<SignatureFailure, string> = {
  missing: 'no x-signature',
  malformed: 'an x-signature that is not ts=…,v1=<hex>',
  mismatch: 'an x-signature that does not match',
  stale: 'an x-signature whose ts is outside the tolerance',
};

/** Throws WebhookAuthError unless the notification is signed with the account's secret, recently. */
export function assertSigned(notification: Notification, secret: string, now: Date, toleranceMs?: number): void {
  const failure = verifySignature({ signature: notification.signature, requestId: notification.requestId, dataId: notification.dataId, secret, nowMs: now.getTime(), toleranceMs });
  if (failure !== null) throw new WebhookAuthError(`Mercado Pago notification with ${FAILURES[failure]}`);
}

/** The payment id a signed `payment` notification names, or WebhookParseError. */
export function notifiedPaymentId(notification: Notification): string {
  const id = notification.dataId === null ? null : idOf(notification.dataId);
  if (id === null) throw new WebhookParseError('a Mercado Pago payment notification names its payment in the query string, data.id', 'data.id');
  return id;
}

const EVENT_OF: Record<Exclude<PaymentStatus, 'pending' | 'partially_refunded'>, ProviderEventType> = {
  paid: 'payment.confirmed',
  expired: 'payment.expired',
  cancelled: 'payment.cancelled',
  failed: 'payment.failed',
  refunded: 'payment.refunded',
};

/**
 * The event a payment read back amounts to: none while it is pending. Its id is Mercado Pago's
 * payment id with the status it reached, so the same news told twice (a repeated notification,
 * `payment.created` then `payment.updated`) is one event.
 */
export function eventOf(payment: MpPayment, charge: ProviderCharge, now: Date): ProviderEvent[] {
  if (charge.status === 'pending' || charge.status === 'partially_refunded') return [];
  const type = EVENT_OF[charge.status];
  return [
    {
      eventId: `mp:${payment.id}:${charge.status}`,
      type,
      paymentRef: payment.id,
      amountCents: type === 'payment.confirmed' ? payment.amountCents : null,
      occurredAt: (charge.status === 'paid' ? charge.paidAt : payment.updatedAt) ?? now,
    },
  ];
}

import { type PaymentEventType, type ProviderEvent, refundEventType } from '../../../domain/provider-event';
import type { PaymentStatus } from '../../../domain/payment-status';
import { type InboundCallback, type ProviderCharge, WebhookAuthError, WebhookParseError } from '../../provider-adapter';
import { type SignatureFailure, verifySignature } from '../signature';
import { idOf, type MpPayment, type MpRefund } from '../wire';
import { toReport } from './refund';

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

function header(request: InboundCallback, name: string): string | null {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : null;
}

/** What a notification says about itself; the body is read only for its topic when the query has none. */
export function readNotification(request: InboundCallback): Notification {
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

const EVENT_OF: Record<Exclude<PaymentStatus, 'pending' | 'partially_refunded'>, PaymentEventType> = {
  paid: 'payment.confirmed',
  expired: 'payment.expired',
  cancelled: 'payment.cancelled',
  failed: 'payment.failed',
  refunded: 'payment.refunded',
};

function paymentEvent(payment: MpPayment, charge: ProviderCharge, status: Exclude<PaymentStatus, 'pending' | 'partially_refunded'>, now: Date): ProviderEvent {
  const type = EVENT_OF[status];
  return {
    eventId: `mp:${payment.id}:${status}`,
    type,
    paymentRef: payment.id,
    amountCents: type === 'payment.confirmed' ? payment.amountCents : null,
    occurredAt: (status === 'paid' ? charge.paidAt : payment.updatedAt) ?? now,
  };
}

/** One event per refund and status it reached, named so: the same report told twice is one event. */
function refundEvent(payment: MpPayment, refund: MpRefund, now: Date): ProviderEvent {
  const report = toReport(refund, payment.id);
  return {
    eventId: `mp:refund:${report.providerRefundId}:${report.status}`,
    type: refundEventType(report.status),
    paymentRef: payment.id,
    amountCents: report.amountCents,
    occurredAt: refund.createdAt ?? now,
    refund: report,
  };
}

/**
 * The events a payment read back amounts to (docs/providers.md, Mercado Pago, Notifications): none
 * while it is pending; otherwise the event of its status, named by its id and that status, so the
 * same report told twice (a repeated notification, `payment.created` then `payment.updated`) is one
 * event. A refund at Mercado Pago is a notification of its payment: a paid payment's `refunds`
 * (listed when it was paid) each become a refund event, and the core derives partly and wholly
 * refunded from their sum. A payment refunded whole whose refunds are listed is therefore told as
 * paid plus its refunds, never `payment.refunded`, which is kept for money that went back without
 * a refund to show: a chargeback, or a refunded payment whose refunds Mercado Pago did not list.
 */
export function eventOf(payment: MpPayment, charge: ProviderCharge, now: Date, refunds: MpRefund[] = []): ProviderEvent[] {
  const status = charge.status;
  switch (status) {
    case 'pending':
    case 'partially_refunded':
      return [];
    case 'expired':
    case 'cancelled':
    case 'failed':
      return [paymentEvent(payment, charge, status, now)];
    case 'paid':
      return [paymentEvent(payment, charge, 'paid', now), ...refunds.map((refund) => refundEvent(payment, refund, now))];
    case 'refunded': {
      if (refunds.length === 0) return [paymentEvent(payment, charge, 'refunded', now)];
      const chargedBack = payment.status === 'charged_back' ? [paymentEvent(payment, charge, 'refunded', now)] : [];
      return [paymentEvent(payment, charge, 'paid', now), ...refunds.map((refund) => refundEvent(payment, refund, now)), ...chargedBack];
    }
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

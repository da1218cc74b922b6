import { centsToReais } from '../../../domain/money';
import type { RefundReport } from '../../../domain/provider-event';
import type { RefundStatus } from '../../../domain/refund';
import { type ProviderRefund, UpstreamError } from '../../provider-adapter';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import { type MpRefund, readRefund, readRefunds } from '../wire';
import { labelOf, type MpCall, settle, unexpected } from './api-call';

/*
 * Refunds of Mercado Pago's payments API (docs/providers.md, Mercado Pago, Refunds): a refund
 * belongs to its payment (`/v1/payments/{id}/refunds`), is made once per X-Idempotency-Key, and a
 * Pix refund may stay `in_process` for a while.
 */

/**
 * Mercado Pago answers a Pix refund still in process with a 400 unless the request carries this
 * header; with it, a 201 and `status: "in_process"`. Lists and reads of refunds take it too.
 */
const RENDER_IN_PROCESS = { 'x-render-in-process-refunds': 'true' } as const;

/**
 * The X-Idempotency-Key of a refund: the gateway's refund id itself (`ref_…`, unique, and never a
 * payment's key, which is a txid of letters and digits). The same refund asked again is the same
 * key, and Mercado Pago answers it with the refund it already made.
 */
export function refundKey(refundId: string): string {
  return refundId;
}

/**
 * The gateway's `providerRefundId` of a Mercado Pago refund: `<payment id>/<refund id>`. Mercado
 * Pago reads a refund only under its payment, and a lookup of a refund need not name the payment.
 */
export function providerRefundIdOf(paymentId: string, refundId: string): string {
  return `${paymentId}/${refundId}`;
}

/** The payment and refund ids in a `providerRefundId`; a bare refund id takes the payment from the lookup's charge. */
export function parseProviderRefundId(value: string, chargePaymentId: string | null): { paymentId: string; refundId: string } | null {
  const composite = /^(\d{1,20})\/(\d{1,20})$/.exec(value);
  if (composite) return { paymentId: composite[1]!, refundId: composite[2]! };
  if (/^\d{1,20}$/.test(value) && chargePaymentId) return { paymentId: chargePaymentId, refundId: value };
  return null;
}

const refundsPath = (paymentId: string) => `/v1/payments/${encodeURIComponent(paymentId)}/refunds`;

/** `POST /v1/payments/{id}/refunds` `{amount}`: always the amount, so a partial refund and a whole one are the same request. */
export function createRefundCall(paymentId: string, refundId: string, amountCents: number): MpCall {
  return {
    operation: 'create refund',
    method: 'POST',
    path: refundsPath(paymentId),
    headers: { 'x-idempotency-key': refundKey(refundId), ...RENDER_IN_PROCESS },
    body: { amount: centsToReais(amountCents) },
  };
}

/** `GET /v1/payments/{id}/refunds/{refund_id}`. */
export function readRefundCall(paymentId: string, refundId: string): MpCall {
  return { operation: 'read refund', method: 'GET', path: `${refundsPath(paymentId)}/${encodeURIComponent(refundId)}`, headers: { ...RENDER_IN_PROCESS } };
}

/** `GET /v1/payments/{id}/refunds`: every refund of the payment, those in process included. */
export function listRefundsCall(paymentId: string): MpCall {
  return { operation: 'list refunds', method: 'GET', path: refundsPath(paymentId), headers: { ...RENDER_IN_PROCESS } };
}

/**
 * The refund made with a refund id's key, when its answer was lost. Mercado Pago's refunds carry no
 * trace of the key that made them, so the list cannot tell which is ours; its idempotency answers a
 * key it has seen with what it answered the first time. The key is sent again with an amount over
 * what the payment was paid: a refund Mercado Pago already made with that key comes back, and a
 * key it never saw is refused (no payment can return more than it was paid), so asking never moves
 * money.
 */
export function findRefundCall(paymentId: string, refundId: string, paidCents: number): MpCall {
  return { ...createRefundCall(paymentId, refundId, paidCents + 1), operation: 'find refund' };
}

/** A refund in a 200 or 201 answer; anything else an UpstreamError. */
export function parseRefund(operation: 'create refund' | 'read refund' | 'find refund', answer: OutboundAnswer): MpRefund | UpstreamError {
  const label = labelOf(operation);
  if (answer.status !== 200 && answer.status !== 201) return unexpected(label, answer);
  return settle(() => readRefund(label, answer.status, jsonOf(answer)));
}

/** The refunds in a 200 answer; anything else an UpstreamError. */
export function parseRefunds(answer: OutboundAnswer): MpRefund[] | UpstreamError {
  const label = labelOf('list refunds');
  if (answer.status !== 200) return unexpected(label, answer);
  return settle(() => readRefunds(label, answer.status, jsonOf(answer)));
}

/**
 * A refund's status as the gateway's (docs/providers.md, Mercado Pago, Refunds): `approved` is
 * money returned; `in_process`, `pending` and `authorized` may still go either way; `rejected` and
 * `cancelled` returned nothing. A status this adapter does not know concludes nothing.
 */
export function gatewayRefundStatus(refund: Pick<MpRefund, 'status'>): RefundStatus {
  const status = refund.status;
  if (status === null) return 'pending';
  switch (status) {
    case 'approved':
      return 'succeeded';
    case 'in_process':
    case 'pending':
    case 'authorized':
      return 'pending';
    case 'rejected':
    case 'cancelled':
      return 'failed';
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/** Mercado Pago gives no reason for a refund that failed but its status: the reason says that much. */
function failureReasonOf(refund: MpRefund, status: RefundStatus): string | null {
  return status === 'failed' ? `Mercado Pago: refund ${refund.rawStatus}` : null;
}

export function toProviderRefund(refund: MpRefund, paymentId: string, refundId: string): ProviderRefund {
  const status = gatewayRefundStatus(refund);
  return { refundId, providerRefundId: providerRefundIdOf(paymentId, refund.id), status, amountCents: refund.amountCents, failureReason: failureReasonOf(refund, status) };
}

/**
 * A refund as the gateway records it from a payment read back. Mercado Pago does not tell a MED
 * return from any other refund on its payments API (docs/providers.md): every refund it lists is
 * `psp`, and the core knows its own by `providerRefundId`.
 */
export function toReport(refund: MpRefund, paymentId: string): RefundReport {
  const status = gatewayRefundStatus(refund);
  return {
    providerRefundId: providerRefundIdOf(paymentId, refund.id),
    status,
    amountCents: refund.amountCents,
    externalOrigin: 'psp',
    failureReason: failureReasonOf(refund, status),
  };
}

/** A refund id's key unknown to Mercado Pago, or a payment with no refund at all: http 404. */
export function refundNotFound(why: string): UpstreamError {
  return new UpstreamError({ kind: 'http', upstreamStatus: 404, providerCode: 'refund_not_found', message: `${labelOf('find refund')}: ${why}` });
}

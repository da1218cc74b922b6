import { centsToReais } from '../../../domain/money';
import type { PaymentStatus } from '../../../domain/payment-status';
import { type CreateChargeRequest, type ProviderCharge, UpstreamError } from '../../provider-adapter';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import { malformed, type MpPayment, type MpRefund, readPayment } from '../wire';
import { labelOf, type MpCall, settle, unexpected } from './api-call';
import { toReport } from './refund';

/**
 * How long a Pix charge of Mercado Pago may live: `date_of_expiration` between 5 minutes and 30
 * days ahead (docs/providers.md, Mercado Pago). A little is kept off each end, so that the time the
 * request takes to arrive never puts it outside.
 */
export const MIN_LIFETIME_SECONDS = 5 * 60 + 30;
export const MAX_LIFETIME_SECONDS = 30 * 24 * 3600 - 60;
/** The gateway's descriptions are at most 140 characters; Mercado Pago's `description` takes them whole. */
const MAX_DESCRIPTION = 140;
/** Brazil has kept UTC−3 all year since 2019: dates are written in Brasília time, as Mercado Pago's examples are. */
const BRASILIA_OFFSET_MS = -3 * 3600_000;

/** The payer's e-mail for a charge with none (docs/providers.md, Mercado Pago): derived from the payment id, at a reserved domain (RFC 2606), never a person's. */
export function derivedPayerEmail(paymentId: string): string {
  return `${paymentId.toLowerCase()}@payer.example.com`;
}

/** The lifetime Mercado Pago accepts nearest the one asked for. */
export function clampLifetime(seconds: number): number {
  return Math.min(MAX_LIFETIME_SECONDS, Math.max(MIN_LIFETIME_SECONDS, Math.floor(seconds)));
}

/** `yyyy-MM-dd'T'HH:mm:ss.SSS-03:00`, the ISO 8601 form of `date_of_expiration`. */
export function mpDateTime(date: Date): string {
  return new Date(date.getTime() + BRASILIA_OFFSET_MS).toISOString().replace('Z', '-03:00');
}

/** `payer`: the e-mail, the first and last name, and the CPF or CNPJ as `identification`. */
export function payerOf(request: CreateChargeRequest): Record<string, unknown> {
  const document = request.payer.document.replace(/[.\-/\s]/g, '').toUpperCase();
  let type: 'CPF' | 'CNPJ';
  if (/^\d{11}$/.test(document)) type = 'CPF';
  else if (/^[0-9A-Z]{12}\d{2}$/.test(document)) type = 'CNPJ';
  else throw new TypeError("createCharge: the payer's document must be a CPF (11 digits) or a CNPJ (14 characters)");
  const [first = '', ...rest] = request.payer.name.trim().split(/\s+/);
  return {
    email: request.payer.email ?? derivedPayerEmail(request.paymentId),
    first_name: first,
    ...(rest.length ? { last_name: rest.join(' ') } : {}),
    identification: { type, number: document },
  };
}

/**
 * `POST /v1/payments` for a Pix charge. `X-Idempotency-Key` is the request's txid, which the
 * gateway derives from the merchant, its Idempotency-Key and the account (charge-txid.ts): a retry
 * is the same request with the same key, and Mercado Pago answers with the payment it already made.
 */
export function createPaymentCall(request: CreateChargeRequest, now: Date): MpCall {
  const description = (request.description?.trim() || request.externalId).slice(0, MAX_DESCRIPTION);
  return {
    operation: 'create payment',
    method: 'POST',
    path: '/v1/payments',
    headers: { 'x-idempotency-key': request.txid },
    body: {
      transaction_amount: centsToReais(request.amountCents),
      description,
      payment_method_id: 'pix',
      external_reference: request.paymentId,
      notification_url: request.notificationUrl,
      date_of_expiration: mpDateTime(new Date(now.getTime() + clampLifetime(request.expiresInSeconds) * 1000)),
      payer: payerOf(request),
    },
  };
}

/** `GET /v1/payments/{id}`. */
export function readPaymentCall(providerPaymentId: string): MpCall {
  return { operation: 'read payment', method: 'GET', path: `/v1/payments/${encodeURIComponent(providerPaymentId)}` };
}

/** `GET /v1/payments/search?external_reference=…`, newest first: a payment whose id the gateway never learnt (a lost create answer). */
export function searchPaymentCall(externalReference: string): MpCall {
  const query = new URLSearchParams({ external_reference: externalReference, sort: 'date_created', criteria: 'desc' });
  return { operation: 'search payments', method: 'GET', path: `/v1/payments/search?${query.toString()}` };
}

/** The search's payments made with that external_reference, newest first; an UpstreamError when the answer is not a search result. */
export function parseSearch(answer: OutboundAnswer, externalReference: string): MpPayment[] | UpstreamError {
  const label = labelOf('search payments');
  if (answer.status !== 200) return unexpected(label, answer);
  return settle(() => {
    const body = jsonOf(answer) as { results?: unknown } | undefined;
    if (typeof body !== 'object' || body === null || !Array.isArray(body.results)) throw malformed(label, answer.status, 'no results list');
    return body.results.map((result) => readPayment(label, answer.status, result)).filter((payment) => payment.externalReference === externalReference);
  });
}

/** `PUT /v1/payments/{id}` with `{"status":"cancelled"}`: a payment not yet approved is cancelled. */
export function cancelPaymentCall(providerPaymentId: string): MpCall {
  return { operation: 'cancel payment', method: 'PUT', path: `/v1/payments/${encodeURIComponent(providerPaymentId)}`, body: { status: 'cancelled' } };
}

/** `GET /v1/payment_methods`: one cheap authenticated read, for the health check. */
export function checkCall(): MpCall {
  return { operation: 'check', method: 'GET', path: '/v1/payment_methods' };
}

/** A payment in a 200 or 201 answer; anything else an UpstreamError. */
export function parsePayment(operation: MpCall['operation'], answer: OutboundAnswer): MpPayment | UpstreamError {
  const label = labelOf(operation);
  if (answer.status !== 200 && answer.status !== 201) return unexpected(label, answer);
  return settle(() => readPayment(label, answer.status, jsonOf(answer)));
}

/** A created payment must carry its BR Code: the gateway never makes one for a real PSP. */
export function parseCreatedPayment(answer: OutboundAnswer): MpPayment | UpstreamError {
  const payment = parsePayment('create payment', answer);
  if (payment instanceof UpstreamError) return payment;
  if (payment.qrCode === null) {
    return new UpstreamError({ kind: 'malformed', message: `${labelOf('create payment')}: no point_of_interaction.transaction_data.qr_code`, upstreamStatus: answer.status });
  }
  return payment;
}

/**
 * Mercado Pago's status as the gateway's (docs/providers.md, Mercado Pago, Statuses):
 * - `pending` (the payer has not paid yet), and a status this adapter does not know: pending, or
 *   expired once `date_of_expiration` has passed (Mercado Pago cancels it later by itself);
 * - `in_process` (under review) and `authorized` (not captured): pending — money may still come, and
 *   neither is final;
 * - `approved`: paid; `in_mediation` (a dispute over a payment that was approved): still paid;
 * - `rejected`: failed;
 * - `cancelled`: cancelled, or expired when its `status_detail` says `expired`;
 * - `refunded` and `charged_back`: refunded (the money went back to the payer).
 */
export function gatewayStatus(payment: Pick<MpPayment, 'status' | 'statusDetail' | 'expiresAt'>, now: Date): PaymentStatus {
  const expired = payment.expiresAt !== null && payment.expiresAt.getTime() <= now.getTime();
  const status = payment.status;
  if (status === null) return expired ? 'expired' : 'pending';
  switch (status) {
    case 'pending':
      return expired ? 'expired' : 'pending';
    case 'in_process':
    case 'authorized':
      return 'pending';
    case 'approved':
    case 'in_mediation':
      return 'paid';
    case 'rejected':
      return 'failed';
    case 'cancelled':
      return payment.statusDetail === 'expired' ? 'expired' : 'cancelled';
    case 'refunded':
    case 'charged_back':
      return 'refunded';
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}

/**
 * The payment as a ProviderCharge: `txid` is the gateway's reference the charge was made or looked
 * up with; `refunds`, when the payment's refunds were listed, every one of them. A payment partly
 * refunded stays `approved` at Mercado Pago (`status_detail` `partially_refunded`), so it is `paid`.
 */
export function toCharge(payment: MpPayment, txid: string, now: Date, refunds?: MpRefund[]): ProviderCharge {
  const status = gatewayStatus(payment, now);
  const paid = status === 'paid' || status === 'refunded';
  return {
    ...(refunds ? { refunds: refunds.map((refund) => toReport(refund, payment.id)) } : {}),
    providerPaymentId: payment.id,
    txid,
    status,
    amountCents: payment.amountCents,
    // A read without the BR Code (Mercado Pago may leave it out once the charge is over) leaves the stored one alone.
    copyPaste: payment.qrCode ?? '',
    expiresAt: payment.expiresAt,
    paidAt: paid ? (payment.approvedAt ?? payment.updatedAt) : null,
  };
}

/** Whether a payment was paid, so that it may have refunds to list. */
export function mayHaveRefunds(payment: MpPayment, now: Date): boolean {
  const status = gatewayStatus(payment, now);
  return status === 'paid' || status === 'refunded';
}

/** Whether a payment is past being cancelled: paid, refunded, or already over. */
export function isConcluded(payment: MpPayment | null, now: Date): payment is MpPayment {
  return payment !== null && gatewayStatus(payment, now) !== 'pending';
}

import { reaisToCents } from '../../domain/money';
import { UpstreamError } from '../provider-adapter';

/*
 * What Mercado Pago's payments API answers, read at the edge (docs/providers.md, Mercado Pago):
 * every field the adapter uses is checked here, and an answer that lacks one, or has it in another
 * shape, is an UpstreamError `malformed`. Field names are those of the payment resource in
 * https://www.mercadopago.com.br/developers/en/reference/payments/_payments_id/get.
 */

/**
 * `status` of a payment, as "Get payment status" lists them
 * (https://www.mercadopago.com.br/developers/en/docs/checkout-api/response-handling/query-results).
 */
export const MP_PAYMENT_STATUSES = ['pending', 'in_process', 'authorized', 'approved', 'rejected', 'cancelled', 'refunded', 'charged_back', 'in_mediation'] as const;
export type MpPaymentStatus = (typeof MP_PAYMENT_STATUSES)[number];

/** A payment as the adapter uses it. */
export interface MpPayment {
  /** Mercado Pago's id (a number on the wire), as text. */
  id: string;
  /** null: a status this adapter does not know (yet); it concludes nothing. */
  status: MpPaymentStatus | null;
  statusDetail: string | null;
  amountCents: number;
  /** The BR Code ("Pix copia e cola"): `point_of_interaction.transaction_data.qr_code`; null when the answer has none. */
  qrCode: string | null;
  externalReference: string | null;
  expiresAt: Date | null;
  approvedAt: Date | null;
  updatedAt: Date | null;
  /** `refunds`: the refunds the payment resource lists (Mercado Pago may leave refunds in process out of it). */
  refunds: MpRefund[];
}

/**
 * `status` of a refund. `approved` and `in_process` are in Mercado Pago's pages (the refund
 * reference's example; "Refund of transactions with Pix"); `rejected` and `cancelled` are how its
 * payments API names a failed and an undone operation, taken for refunds too (docs/providers.md).
 */
export const MP_REFUND_STATUSES = ['approved', 'in_process', 'pending', 'authorized', 'rejected', 'cancelled'] as const;
export type MpRefundStatus = (typeof MP_REFUND_STATUSES)[number];

/** A refund as Mercado Pago reports it (`POST /v1/payments/{id}/refunds`, its lists, the payment's `refunds`). */
export interface MpRefund {
  id: string;
  /** The payment it belongs to (`payment_id`), when the answer says. */
  paymentId: string | null;
  amountCents: number;
  /** null: a status this adapter does not know (yet); it concludes nothing. */
  status: MpRefundStatus | null;
  /** The status as Mercado Pago wrote it, for a failure's reason. */
  rawStatus: string;
  createdAt: Date | null;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const MAX_QR_CODE = 512;

export function malformed(label: string, status: number | undefined, why: string): UpstreamError {
  return new UpstreamError({ kind: 'malformed', message: `${label}: ${why}`, upstreamStatus: status });
}

function objectOf(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Mercado Pago's ids are numbers on the wire (some tools write them as strings): kept as decimal text. */
export function idOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) return value;
  return null;
}

function dateOf(label: string, status: number, value: unknown, what: string): Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || !DATE_TIME.test(value)) throw malformed(label, status, `${what} is not a date-time`);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw malformed(label, status, `${what} is not a date-time`);
  return date;
}

function textOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** `transaction_amount`, a JSON number of reais with at most two decimals, in centavos. */
function centsOf(label: string, status: number, value: unknown, what: string): number {
  const cents = typeof value === 'number' ? reaisToCents(value) : undefined;
  if (cents === undefined) throw malformed(label, status, `${what} is not an amount of reais`);
  return cents;
}

/** The payment in an answer's body (create, read, cancel), or an UpstreamError `malformed` (thrown). */
export function readPayment(label: string, status: number, body: unknown): MpPayment {
  const payment = objectOf(body);
  if (!payment) throw malformed(label, status, 'the answer is not a JSON object');
  const id = idOf(payment.id);
  if (id === null) throw malformed(label, status, 'the payment has no id');
  if (typeof payment.status !== 'string' || payment.status === '') throw malformed(label, status, 'the payment has no status');
  const known = (MP_PAYMENT_STATUSES as readonly string[]).includes(payment.status) ? (payment.status as MpPaymentStatus) : null;
  const interaction = objectOf(payment.point_of_interaction);
  const data = interaction ? objectOf(interaction.transaction_data) : null;
  const qrCode = data ? textOf(data.qr_code) : null;
  if (qrCode !== null && qrCode.length > MAX_QR_CODE) throw malformed(label, status, 'the BR Code is too long');
  return {
    id,
    status: known,
    statusDetail: textOf(payment.status_detail),
    amountCents: centsOf(label, status, payment.transaction_amount, 'transaction_amount'),
    qrCode,
    externalReference: textOf(payment.external_reference),
    expiresAt: dateOf(label, status, payment.date_of_expiration, 'date_of_expiration'),
    approvedAt: dateOf(label, status, payment.date_approved, 'date_approved'),
    updatedAt: dateOf(label, status, payment.date_last_updated, 'date_last_updated'),
    refunds: readRefunds(label, status, payment.refunds ?? []),
  };
}

/** A refund in an answer's body, or an UpstreamError `malformed` (thrown). */
export function readRefund(label: string, status: number, body: unknown): MpRefund {
  const refund = objectOf(body);
  if (!refund) throw malformed(label, status, 'the refund is not a JSON object');
  const id = idOf(refund.id);
  if (id === null) throw malformed(label, status, 'the refund has no id');
  if (typeof refund.status !== 'string' || refund.status === '') throw malformed(label, status, 'the refund has no status');
  const known = (MP_REFUND_STATUSES as readonly string[]).includes(refund.status) ? (refund.status as MpRefundStatus) : null;
  return {
    id,
    paymentId: idOf(refund.payment_id),
    amountCents: centsOf(label, status, refund.amount, 'the refund amount'),
    status: known,
    rawStatus: refund.status,
    createdAt: dateOf(label, status, refund.date_created, 'the refund date_created'),
  };
}

/** A list of refunds (`GET /v1/payments/{id}/refunds`, a payment's `refunds`), or an UpstreamError `malformed` (thrown). */
export function readRefunds(label: string, status: number, body: unknown): MpRefund[] {
  if (!Array.isArray(body)) throw malformed(label, status, 'the refunds are not a list');
  return body.map((refund) => readRefund(label, status, refund));
}

/** What Mercado Pago's error body says: `{message, error, status, cause: [{code, description}]}`. */
export function mpProblemOf(body: unknown): { code?: string; message?: string } {
  const problem = objectOf(body);
  if (!problem) return {};
  const cut = (text: string | null) => (text && text.length > 300 ? `${text.slice(0, 299)}…` : (text ?? undefined));
  const causes = Array.isArray(problem.cause) ? problem.cause : objectOf(problem.cause) ? [problem.cause] : [];
  const cause = objectOf(causes[0]);
  const causeCode = cause && (typeof cause.code === 'number' ? String(cause.code) : textOf(cause.code));
  const code = causeCode ?? textOf(problem.error) ?? undefined;
  const message = cut((cause && textOf(cause.description)) ?? textOf(problem.message));
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}

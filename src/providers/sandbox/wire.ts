import { isCalendarDate } from '../../domain/recurrence';
import type { PixPaymentDetails } from '../../domain/provider-event';
import {
  isSandboxRefundOrigin,
  isSandboxRefundStatus,
  isSandboxStatus,
  type SandboxChargeStatus,
  type SandboxRefundOrigin,
  type SandboxRefundStatus,
  wireAmountToCents,
} from '../../common/sandbox-wire/sandbox-api';
import { isSandboxBatchItemStatus, type SandboxBatchItemStatus } from '../../common/sandbox-wire/sandbox-due-api';
import {
  isSandboxAttemptStatus,
  isSandboxCanceller,
  isSandboxRecurrenceStatus,
  isSandboxRecurringChargeStatus,
  type SandboxAttemptStatus,
  type SandboxCanceller,
  type SandboxRecurrenceStatus,
  type SandboxRecurringChargeStatus,
} from '../../common/sandbox-wire/sandbox-recurring-api';
import { UpstreamError } from '../provider-adapter';
import { jsonOf } from '../support/answers';
import { maskDocument } from '../support/masking';
import type { OutboundAnswer } from '../transport/transport';

/*
 * What the simulated PSP answers, read at the edge: every field the adapter uses is checked here,
 * and an answer that lacks one, or has it in another shape, is an UpstreamError `malformed` naming
 * the call (`Sandbox get: no txid`). The wire format itself (bodies, statuses) is
 * src/common/sandbox-wire/, which the simulated PSP speaks too, so the two cannot drift apart.
 */

const END_TO_END_ID = /^E\d{8}\d{12}[a-zA-Z0-9]{11}$/;
const MAX_ID_LENGTH = 200;

/** An answer that does not read: `Sandbox <operation>: <why>`, with the status it came with. */
export function malformed(operation: string, response: OutboundAnswer, why: string): UpstreamError {
  return new UpstreamError({ kind: 'malformed', message: `Sandbox ${operation}: ${why}`, upstreamStatus: response.status });
}

/** The answer's body as a JSON object, or `malformed`. */
function bodyOf(operation: string, response: OutboundAnswer): Record<string, unknown> {
  const body = jsonOf(response);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw malformed(operation, response, 'the body is not a JSON object');
  return body as Record<string, unknown>;
}

/** null for null/absent, a Date for an ISO timestamp, undefined for anything else. */
export function optionalDate(value: unknown): Date | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function nullableString(value: unknown): string | null | undefined {
  if (value === null) return null;
  return typeof value === 'string' ? value : undefined;
}

/**
 * The Pix that paid a charge at the simulated PSP (`pix` on a charge or a `payment.confirmed` callback) as the
 * gateway keeps it, the payer's document masked as the Pix API adapter masks it; null when absent,
 * or why it does not read.
 */
export function readSandboxPix(value: unknown): PixPaymentDetails | null | string {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return 'pix is not an object';
  const pix = value as Record<string, unknown>;
  if (typeof pix.endToEndId !== 'string' || !END_TO_END_ID.test(pix.endToEndId)) return 'pix.endToEndId is not an end-to-end id';
  const paidAmountCents = typeof pix.amount === 'string' ? wireAmountToCents(pix.amount) : undefined;
  if (paidAmountCents === undefined) return 'pix.amount is not a two-place decimal string';
  const payer = pix.payer as Record<string, unknown> | null | undefined;
  if (typeof payer !== 'object' || payer === null || typeof payer.name !== 'string' || typeof payer.document !== 'string') return 'pix.payer needs a name and a document';
  return { endToEndId: pix.endToEndId, paidAmountCents, payer: { name: payer.name, documentMasked: maskDocument(payer.document) } };
}

/** A refund of the simulated PSP as read off the wire, checked. */
export interface SandboxRefund {
  id: string;
  /** The client's refund id it was asked for with; null when made outside the API. */
  refundId: string | null;
  amountCents: number;
  status: SandboxRefundStatus;
  origin: SandboxRefundOrigin;
  failureReason: string | null;
}

/** A refund on the wire (`{id, refundId, amount, status, origin, failureReason, …}`), or why it is not one. */
export function readSandboxRefund(value: unknown): SandboxRefund | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the refund is not an object';
  const refund = value as Record<string, unknown>;
  if (typeof refund.id !== 'string' || refund.id === '' || refund.id.length > MAX_ID_LENGTH) return 'the refund has no id';
  if (refund.refundId !== null && (typeof refund.refundId !== 'string' || refund.refundId === '')) return 'refundId is neither a string nor null';
  const amountCents = typeof refund.amount === 'string' ? wireAmountToCents(refund.amount) : undefined;
  if (amountCents === undefined) return 'the refund amount is not a two-place decimal string';
  if (!isSandboxRefundStatus(refund.status)) return `unknown refund status ${JSON.stringify(refund.status)}`;
  if (!isSandboxRefundOrigin(refund.origin)) return `unknown refund origin ${JSON.stringify(refund.origin)}`;
  if (refund.failureReason !== null && typeof refund.failureReason !== 'string') return 'failureReason is neither a string nor null';
  return {
    id: refund.id,
    refundId: refund.refundId,
    amountCents,
    status: refund.status,
    origin: refund.origin,
    // A failed refund always says why; the simulated PSP never leaves it out, but a reader should not pass on null for one.
    failureReason: refund.status === 'NAO_REALIZADO' ? (refund.failureReason ?? 'The sandbox gave no reason.') : null,
  };
}

/** The answer's refund, or `malformed`. */
export function readRefundAnswer(operation: string, response: OutboundAnswer): SandboxRefund {
  const refund = readSandboxRefund(jsonOf(response));
  if (typeof refund === 'string') throw malformed(operation, response, refund);
  return refund;
}

/** A charge as read off the wire, checked. */
export interface SandboxCharge {
  id: string;
  txid: string;
  status: SandboxChargeStatus;
  amountCents: number;
  /** `pixCopiaECola`. */
  copyPaste: string;
  expiresAt: Date | null;
  paidAt: Date | null;
  /** The charge's refunds (listed once it has any: absent is none). */
  refunds: SandboxRefund[];
  pix: PixPaymentDetails | null;
}

/** The answer's charge (`POST /charges`, `GET /charges/:id`, its cancel), or `malformed`. */
export function readChargeAnswer(operation: string, response: OutboundAnswer): SandboxCharge {
  const charge = bodyOf(operation, response);
  const bad = (why: string) => malformed(operation, response, why);
  if (typeof charge.id !== 'string' || charge.id === '') throw bad('no charge id');
  if (typeof charge.txid !== 'string' || charge.txid === '') throw bad('no txid');
  if (!isSandboxStatus(charge.status)) throw bad(`unknown status ${JSON.stringify(charge.status)}`);
  const amountCents = typeof charge.amount === 'string' ? wireAmountToCents(charge.amount) : undefined;
  if (amountCents === undefined) throw bad('amount is not a two-place decimal string');
  if (typeof charge.pixCopiaECola !== 'string' || charge.pixCopiaECola === '') throw bad('no pixCopiaECola');
  const expiresAt = optionalDate(charge.expiresAt);
  const paidAt = optionalDate(charge.paidAt);
  if (expiresAt === undefined) throw bad('expiresAt is not a date');
  if (paidAt === undefined) throw bad('paidAt is not a date');
  const refunds = readRefunds(charge.refunds);
  if (typeof refunds === 'string') throw bad(refunds);
  const pix = readSandboxPix(charge.pix);
  if (typeof pix === 'string') throw bad(pix);
  return { id: charge.id, txid: charge.txid, status: charge.status, amountCents, copyPaste: charge.pixCopiaECola, expiresAt, paidAt, refunds, pix };
}

/** A charge's refunds (listed once it has any: absent is none), or why they do not read. */
function readRefunds(value: unknown): SandboxRefund[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'refunds is not a list';
  const refunds: SandboxRefund[] = [];
  for (const entry of value) {
    const refund = readSandboxRefund(entry);
    if (typeof refund === 'string') return `refunds: ${refund}`;
    refunds.push(refund);
  }
  return refunds;
}

/** A recurrence as read off the wire, checked. */
export interface SandboxRecurrence {
  id: string;
  status: SandboxRecurrenceStatus;
  cancelledBy: SandboxCanceller | null;
  /** `pixCopiaECola`: the authorization BR Code, while there is one. */
  copyPaste: string | null;
  expiresAt: Date;
  updatedAt: Date;
}

/** The answer's recurrence, or `malformed`. */
export function readRecurrenceAnswer(operation: string, response: OutboundAnswer): SandboxRecurrence {
  const body = bodyOf(operation, response);
  const bad = (why: string) => malformed(operation, response, why);
  if (typeof body.id !== 'string' || body.id === '') throw bad('no recurrence id');
  if (!isSandboxRecurrenceStatus(body.status)) throw bad(`unknown status ${JSON.stringify(body.status)}`);
  if (body.cancelledBy !== null && !isSandboxCanceller(body.cancelledBy)) throw bad(`unknown cancelledBy ${JSON.stringify(body.cancelledBy)}`);
  if (body.pixCopiaECola !== null && (typeof body.pixCopiaECola !== 'string' || body.pixCopiaECola === '')) throw bad('pixCopiaECola is not a string');
  const expiresAt = optionalDate(body.expiresAt);
  const updatedAt = optionalDate(body.updatedAt);
  if (!expiresAt) throw bad('expiresAt is not a date');
  if (!updatedAt) throw bad('updatedAt is not a date');
  return { id: body.id, status: body.status, cancelledBy: body.cancelledBy, copyPaste: body.pixCopiaECola, expiresAt, updatedAt };
}

/** One settlement attempt as read off the wire, checked. */
export interface SandboxAttempt {
  date: string;
  status: SandboxAttemptStatus;
  endToEndId: string | null;
  failureReason: string | null;
}

/** A recurring charge as read off the wire, checked. */
export interface SandboxRecurringCharge {
  txid: string;
  recurrenceId: string;
  status: SandboxRecurringChargeStatus;
  amountCents: number;
  dueDate: string;
  /** Oldest first, never empty. */
  attempts: SandboxAttempt[];
  endToEndId: string | null;
  paidAt: Date | null;
  failureReason: string | null;
  updatedAt: Date;
}

/** The answer's recurring charge, or `malformed`. */
export function readRecurringChargeAnswer(operation: string, response: OutboundAnswer): SandboxRecurringCharge {
  const body = bodyOf(operation, response);
  const bad = (why: string) => malformed(operation, response, why);
  if (typeof body.txid !== 'string' || body.txid === '') throw bad('no txid');
  if (typeof body.recurrenceId !== 'string' || body.recurrenceId === '') throw bad('no recurrenceId');
  if (!isSandboxRecurringChargeStatus(body.status)) throw bad(`unknown status ${JSON.stringify(body.status)}`);
  const amountCents = typeof body.amount === 'string' ? wireAmountToCents(body.amount) : undefined;
  if (amountCents === undefined) throw bad('amount is not a two-place decimal string');
  if (!isCalendarDate(body.dueDate)) throw bad('dueDate is not a calendar date');
  if (!Array.isArray(body.attempts) || body.attempts.length === 0) throw bad('no attempts');
  const attempts = (body.attempts as unknown[]).map((entry, index) => readAttempt(entry, (why) => bad(`attempts[${index}]: ${why}`)));
  const paidAt = optionalDate(body.paidAt);
  const updatedAt = optionalDate(body.updatedAt);
  if (paidAt === undefined) throw bad('paidAt is not a date');
  if (!updatedAt) throw bad('updatedAt is not a date');
  const endToEndId = nullableString(body.endToEndId);
  const failureReason = nullableString(body.failureReason);
  if (endToEndId === undefined) throw bad('endToEndId is not a string');
  if (failureReason === undefined) throw bad('failureReason is not a string');
  return { txid: body.txid, recurrenceId: body.recurrenceId, status: body.status, amountCents, dueDate: body.dueDate, attempts, endToEndId, paidAt, failureReason, updatedAt };
}

function readAttempt(value: unknown, bad: (why: string) => UpstreamError): SandboxAttempt {
  if (typeof value !== 'object' || value === null) throw bad('not an object');
  const attempt = value as Record<string, unknown>;
  if (!isCalendarDate(attempt.date)) throw bad('date is not a calendar date');
  if (!isSandboxAttemptStatus(attempt.status)) throw bad(`unknown status ${JSON.stringify(attempt.status)}`);
  const endToEndId = nullableString(attempt.endToEndId);
  const failureReason = nullableString(attempt.failureReason);
  if (endToEndId === undefined || failureReason === undefined) throw bad('endToEndId and failureReason are strings or null');
  return { date: attempt.date, status: attempt.status, endToEndId, failureReason };
}

/** A batch's charge as read off the wire, checked. */
export interface SandboxBatchItem {
  txid: string;
  status: SandboxBatchItemStatus;
  /** Why it was refused, `CODE: message` (as a Pix API problem's title and detail); null unless refused. */
  problem: string | null;
}

/** The answer's batch charges (`GET /batches/:id`: `{id, charges:[{txid, status, problem}]}`), or `malformed`. */
export function readBatchAnswer(operation: string, response: OutboundAnswer): SandboxBatchItem[] {
  const body = bodyOf(operation, response);
  const bad = (why: string) => malformed(operation, response, why);
  if (!Array.isArray(body.charges)) throw bad('no charges');
  return (body.charges as unknown[]).map((entry, index) => {
    if (typeof entry !== 'object' || entry === null) throw bad(`charges[${index}] is not an object`);
    const item = entry as Record<string, unknown>;
    if (typeof item.txid !== 'string' || item.txid === '' || item.txid.length > MAX_ID_LENGTH) throw bad(`charges[${index}] has no txid`);
    if (!isSandboxBatchItemStatus(item.status)) throw bad(`charges[${index}]: unknown status ${JSON.stringify(item.status)}`);
    if (item.status !== 'NEGADA') return { txid: item.txid, status: item.status, problem: null };
    const problem = item.problem as { code?: unknown; message?: unknown } | null | undefined;
    // A refused charge always says why; one that does not is still refused, with a word for it.
    const code = typeof problem?.code === 'string' ? problem.code : null;
    const message = typeof problem?.message === 'string' ? problem.message : 'The sandbox gave no reason.';
    return { txid: item.txid, status: item.status, problem: code ? `${code}: ${message}` : message };
  });
}

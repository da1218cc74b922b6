import { centsToDecimalString } from '../domain/money';
import {
  addDays,
  brasiliaDate,
  cycleOf,
  type DueDateProblem,
  dueDateProblem,
  type FirstPaymentJourney,
  type Frequency,
  type Journey,
  MAX_RETRIES,
  nextRetryDate,
  RETRY_WINDOW_DAYS,
  type RetryPolicy,
} from '../domain/recurrence';
import type { DueTerms } from '../domain/due-charge';
import type { SandboxPersonWire } from '../common/sandbox-wire/sandbox-api';
import {
  SANDBOX_LEAD_TIME,
  type SandboxAttemptStatus,
  type SandboxAttemptWire,
  type SandboxCanceller,
  type SandboxCreateRecurringChargeBody,
  type SandboxPayerAccountWire,
  type SandboxRecurrenceStatus,
  type SandboxRecurrenceWire,
  type SandboxRecurringChargeStatus,
  type SandboxRecurringChargeWire,
} from '../common/sandbox-wire/sandbox-recurring-api';
import { SandboxHttpError } from './sandbox-errors';

/**
 * The sandbox's Pix Automático (docs/sandbox.md, Recurrences): recurrences and their charges in
 * memory, and the pure rules the routes follow (recurrence-routes.ts). Same life as the Pix API's
 * Rec and CobR (https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml,
 * `CobROperacaoInvalida`): one charge per cycle unless it was cancelled or rejected, a charge
 * cancelled only before the date of its first attempt, retries only under `PERMITE_3R_7D` and only
 * after a failed attempt.
 */

export interface StoredRecurrence {
  id: string;
  recurrenceId: string;
  status: SandboxRecurrenceStatus;
  contract: { id: string; description: string | null };
  debtor: SandboxPersonWire;
  frequency: Frequency;
  amountCents: number | null;
  minimumAmountCents: number | null;
  startDate: string;
  endDate: string | null;
  retryPolicy: RetryPolicy;
  journey: Journey;
  firstPaymentTxid: string | null;
  payerAccount: SandboxPayerAccountWire | null;
  /** The authorization BR Code of a QR journey; shown only while the payer may authorize. */
  pixCopiaECola: string | null;
  notificationUrl: string;
  /** Never shown. */
  webhookSecret?: string;
  createdAt: Date;
  expiresAt: Date;
  updatedAt: Date;
  cancelledBy: SandboxCanceller | null;
}

export interface StoredAttempt {
  date: string;
  status: SandboxAttemptStatus;
  endToEndId: string | null;
  failureReason: string | null;
  updatedAt: Date;
}

export interface StoredRecurringCharge {
  txid: string;
  recurrence: StoredRecurrence;
  status: SandboxRecurringChargeStatus;
  amountCents: number;
  dueDate: string;
  description: string | null;
  receiverAccount: SandboxCreateRecurringChargeBody['receiverAccount'];
  attempts: StoredAttempt[];
  endToEndId: string | null;
  paidAt: Date | null;
  failureReason: string | null;
  notificationUrl: string;
  webhookSecret?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Why a failed attempt failed when the simulation names no reason. */
export const DEFAULT_FAILURE_REASON = "Insufficient funds in the payer's account (simulated failure).";

/**
 * Recurrences by the sandbox's id and the client's, and charges by txid. Capped like the charges:
 * past `max` recurrences the oldest is forgotten with its charges (Map order is insertion order).
 */
export class RecurrenceStore {
  private readonly byId = new Map<string, StoredRecurrence>();
  private readonly byClientId = new Map<string, StoredRecurrence>();
  private readonly charges = new Map<string, StoredRecurringCharge>();
  private readonly chargesOf = new Map<string, StoredRecurringCharge[]>();

  constructor(private readonly max: number) {}

  add(recurrence: StoredRecurrence): void {
    if (this.byId.size >= this.max) {
      const oldest = this.byId.values().next().value;
      if (oldest) this.forget(oldest);
    }
    this.byId.set(recurrence.id, recurrence);
    this.byClientId.set(recurrence.recurrenceId, recurrence);
    this.chargesOf.set(recurrence.id, []);
  }

  /** By the sandbox's id or the client's; one waiting past its expiry is expired on the way out. */
  find(ref: string, now: number): StoredRecurrence | undefined {
    const recurrence = this.byId.get(ref) ?? this.byClientId.get(ref);
    if (recurrence) expireRecurrenceIfDue(recurrence, now);
    return recurrence;
  }

  addCharge(charge: StoredRecurringCharge): void {
    this.charges.set(charge.txid, charge);
    this.chargesOf.get(charge.recurrence.id)?.push(charge);
  }

  findCharge(txid: string, now: number): StoredRecurringCharge | undefined {
    const charge = this.charges.get(txid);
    if (charge) expireChargeIfDue(charge, now);
    return charge;
  }

  /** A recurrence's charges, oldest first. */
  chargesFor(recurrence: StoredRecurrence, now: number): StoredRecurringCharge[] {
    const charges = this.chargesOf.get(recurrence.id) ?? [];
    for (const charge of charges) expireChargeIfDue(charge, now);
    return charges;
  }

  private forget(recurrence: StoredRecurrence): void {
    this.byId.delete(recurrence.id);
    this.byClientId.delete(recurrence.recurrenceId);
    for (const charge of this.chargesOf.get(recurrence.id) ?? []) this.charges.delete(charge.txid);
    this.chargesOf.delete(recurrence.id);
  }
}

function expireRecurrenceIfDue(recurrence: StoredRecurrence, now: number): void {
  if (recurrence.status !== 'CRIADA' || recurrence.expiresAt.getTime() > now) return;
  recurrence.status = 'EXPIRADA';
  recurrence.pixCopiaECola = null;
  recurrence.updatedAt = recurrence.expiresAt;
}

/** A charge whose last attempt failed and for which no retry can be dated any more is expired. */
function expireChargeIfDue(charge: StoredRecurringCharge, now: number): void {
  if (charge.status !== 'ATIVA' || currentAttempt(charge).status !== 'REJEITADA') return;
  if (brasiliaToday(now) < addDays(charge.dueDate, RETRY_WINDOW_DAYS)) return;
  charge.status = 'EXPIRADA';
  charge.updatedAt = new Date(now);
}

export function currentAttempt(charge: StoredRecurringCharge): StoredAttempt {
  return charge.attempts[charge.attempts.length - 1]!;
}

/** The calendar day it is in Brasília on the sandbox's clock. */
export function brasiliaToday(now: number): string {
  return brasiliaDate(new Date(now));
}

// ---- Rules -------------------------------------------------------------------------------------

const refused = (code: string, message: string, field?: string) => new SandboxHttpError(400, code, message, field);

const DUE_DATE_WORDS: Record<DueDateProblem, string> = {
  before_today: 'is before today',
  before_start: "is before the recurrence's start date",
  after_end: "is after the recurrence's end date",
  too_soon: `is less than ${SANDBOX_LEAD_TIME.minDays} days ahead: a charge must reach the payer's bank ${SANDBOX_LEAD_TIME.minDays} to ${SANDBOX_LEAD_TIME.maxDays} days before it is due`,
  too_far: `is more than ${SANDBOX_LEAD_TIME.maxDays} days ahead: a charge must reach the payer's bank ${SANDBOX_LEAD_TIME.minDays} to ${SANDBOX_LEAD_TIME.maxDays} days before it is due`,
};

/** Why a charge of `amountCents` due `dueDate` cannot be created for `recurrence` today, or null. */
export function chargeRefusal(
  recurrence: StoredRecurrence,
  others: readonly StoredRecurringCharge[],
  request: { dueDate: string; amountCents: number },
  today: string,
): SandboxHttpError | null {
  if (recurrence.status !== 'APROVADA') return refused('RECURRENCE_NOT_ACTIVE', `The recurrence is ${recurrence.status}: only an authorized (APROVADA) one takes charges.`);
  if (recurrence.amountCents !== null && request.amountCents !== recurrence.amountCents) {
    return refused('AMOUNT_MISMATCH', `amount must be the recurrence's fixed ${centsToDecimalString(recurrence.amountCents)}.`, 'amount');
  }
  if (recurrence.minimumAmountCents !== null && request.amountCents < recurrence.minimumAmountCents) {
    return refused('AMOUNT_BELOW_MINIMUM', `amount must be at least the recurrence's ${centsToDecimalString(recurrence.minimumAmountCents)}.`, 'amount');
  }
  const problem = dueDateProblem(request.dueDate, today, recurrence, SANDBOX_LEAD_TIME);
  if (problem) return refused('DUE_DATE_REFUSED', `dueDate ${request.dueDate} ${DUE_DATE_WORDS[problem]}.`, 'dueDate');
  const cycle = cycleOf(recurrence.startDate, recurrence.frequency, request.dueDate);
  const taken = others.find(
    (other) => other.status !== 'CANCELADA' && other.status !== 'REJEITADA' && cycleOf(recurrence.startDate, recurrence.frequency, other.dueDate) === cycle,
  );
  if (taken) return new SandboxHttpError(409, 'CYCLE_TAKEN', `Charge ${taken.txid} (due ${taken.dueDate}) already holds this cycle.`, 'dueDate');
  return null;
}

/**
 * Why `charge` cannot be the first payment of `journey`'s composite QR, or null: JORNADA_3 pays an
 * immediate charge and JORNADA_4 a due-date one, and a charge of the other kind is refused.
 */
export function firstPaymentKindRefusal(journey: FirstPaymentJourney, charge: { txid: string; due?: DueTerms }): string | null {
  if (journey === 'qr_with_due_payment' && !charge.due) {
    return `The first payment's charge ${charge.txid} has no due date: the qr_with_due_payment journey pays a due-date charge (POST /charges with due).`;
  }
  if (journey === 'qr_with_first_payment' && charge.due) {
    return `The first payment's charge ${charge.txid} is a due-date charge: the qr_with_first_payment journey pays an immediate one (qr_with_due_payment pays a due-date one).`;
  }
  return null;
}

/**
 * Why a retry dated `date` cannot be asked for today, or null: only under `three_in_seven_days`,
 * while the recurrence is authorized, on an open charge whose last attempt failed, at most MAX_RETRIES, dated after the last attempt and
 * after today, and no later than the due date plus RETRY_WINDOW_DAYS.
 */
export function retryRefusal(charge: StoredRecurringCharge, date: string, today: string): SandboxHttpError | null {
  if (charge.recurrence.retryPolicy !== 'three_in_seven_days') return refused('RETRY_NOT_ALLOWED', "The recurrence's retry policy allows no retries.");
  // A payer who cancelled (or a merchant) took the authorization away: nothing more can be debited.
  if (charge.recurrence.status !== 'APROVADA') return refused('RECURRENCE_NOT_ACTIVE', `The recurrence is ${charge.recurrence.status}: no attempt can be added.`);
  if (charge.status !== 'ATIVA') return refused('CHARGE_CLOSED', `The charge is ${charge.status}: no attempt can be added.`);
  const last = currentAttempt(charge);
  if (last.status !== 'REJEITADA') return refused('ATTEMPT_NOT_FAILED', `The last attempt is ${last.status}: a retry follows a failed attempt only.`);
  if (charge.attempts.length - 1 >= MAX_RETRIES) return refused('RETRY_LIMIT', `The charge has had its ${MAX_RETRIES} retries.`);
  if (date <= last.date) return refused('RETRY_DATE_REFUSED', `The retry must be dated after the last attempt (${last.date}).`, 'date');
  if (date <= today) return refused('RETRY_DATE_REFUSED', 'The retry must be dated in the future.', 'date');
  const latest = addDays(charge.dueDate, RETRY_WINDOW_DAYS);
  if (date > latest) return refused('RETRY_DATE_REFUSED', `The retry must be dated no later than ${latest} (the due date + ${RETRY_WINDOW_DAYS} days).`, 'date');
  return null;
}

/** Whether a charge is cancelled with its recurrence: open, and its first attempt not yet made. */
export function notYetAttempted(charge: StoredRecurringCharge): boolean {
  return charge.status === 'ATIVA' && charge.attempts.length === 1 && charge.attempts[0]!.status === 'AGENDADA';
}

/** Cancels an open charge before the date of its first attempt; refuses on or after it. Others are left as they stand. */
export function cancelCharge(charge: StoredRecurringCharge, now: number): SandboxHttpError | null {
  if (charge.status !== 'ATIVA') return null;
  const first = charge.attempts[0]!;
  if (brasiliaToday(now) >= first.date) {
    return refused('CANCEL_WINDOW_CLOSED', `A charge can be cancelled only before the date of its first attempt (${first.date}).`);
  }
  closeCharge(charge, 'CANCELADA', now);
  return null;
}

/** Ends an open charge as cancelled (its scheduled attempt with it). */
export function closeCharge(charge: StoredRecurringCharge, status: 'CANCELADA', now: number): void {
  const at = new Date(now);
  charge.status = status;
  charge.updatedAt = at;
  const attempt = currentAttempt(charge);
  if (attempt.status === 'AGENDADA') Object.assign(attempt, { status: 'CANCELADA', updatedAt: at });
}

/**
 * The current attempt failed: the charge stays open while a retry may still be asked for under
 * its policy (retries left, a date left in the window), else it is rejected.
 */
export function failAttempt(charge: StoredRecurringCharge, reason: string, now: number): void {
  const at = new Date(now);
  const attempt = currentAttempt(charge);
  Object.assign(attempt, { status: 'REJEITADA', failureReason: reason, updatedAt: at });
  charge.updatedAt = at;
  const retriesSoFar = charge.attempts.length - 1;
  const retryLeft = charge.recurrence.retryPolicy === 'three_in_seven_days' && nextRetryDate(charge.dueDate, attempt.date, brasiliaToday(now), retriesSoFar) !== null;
  if (!retryLeft) {
    charge.status = 'REJEITADA';
    charge.failureReason = reason;
  }
}

/** The current attempt settled. */
export function settleAttempt(charge: StoredRecurringCharge, endToEndId: string, now: number): void {
  const at = new Date(now);
  Object.assign(currentAttempt(charge), { status: 'PAGA', endToEndId, updatedAt: at });
  Object.assign(charge, { status: 'CONCLUIDA', endToEndId, paidAt: at, updatedAt: at });
}

// ---- Wire --------------------------------------------------------------------------------------

export function recurrenceToWire(recurrence: StoredRecurrence): SandboxRecurrenceWire {
  return {
    id: recurrence.id,
    recurrenceId: recurrence.recurrenceId,
    status: recurrence.status,
    contract: recurrence.contract,
    debtor: recurrence.debtor,
    frequency: recurrence.frequency,
    amount: recurrence.amountCents === null ? null : centsToDecimalString(recurrence.amountCents),
    minimumAmount: recurrence.minimumAmountCents === null ? null : centsToDecimalString(recurrence.minimumAmountCents),
    startDate: recurrence.startDate,
    endDate: recurrence.endDate,
    retryPolicy: recurrence.retryPolicy,
    journey: recurrence.journey,
    firstPaymentTxid: recurrence.firstPaymentTxid,
    payerAccount: recurrence.payerAccount,
    pixCopiaECola: recurrence.status === 'CRIADA' ? recurrence.pixCopiaECola : null,
    notificationUrl: recurrence.notificationUrl,
    createdAt: recurrence.createdAt.toISOString(),
    expiresAt: recurrence.expiresAt.toISOString(),
    updatedAt: recurrence.updatedAt.toISOString(),
    cancelledBy: recurrence.cancelledBy,
  };
}

function attemptToWire(attempt: StoredAttempt): SandboxAttemptWire {
  return { date: attempt.date, status: attempt.status, endToEndId: attempt.endToEndId, failureReason: attempt.failureReason, updatedAt: attempt.updatedAt.toISOString() };
}

export function recurringChargeToWire(charge: StoredRecurringCharge): SandboxRecurringChargeWire {
  return {
    txid: charge.txid,
    recurrenceId: charge.recurrence.id,
    status: charge.status,
    amount: centsToDecimalString(charge.amountCents),
    dueDate: charge.dueDate,
    description: charge.description,
    receiverAccount: charge.receiverAccount,
    attempts: charge.attempts.map(attemptToWire),
    endToEndId: charge.endToEndId,
    paidAt: charge.paidAt ? charge.paidAt.toISOString() : null,
    failureReason: charge.failureReason,
    notificationUrl: charge.notificationUrl,
    createdAt: charge.createdAt.toISOString(),
    updatedAt: charge.updatedAt.toISOString(),
  };
}

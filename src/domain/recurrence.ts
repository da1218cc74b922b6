/**
 * Pix Automático (docs/recurrences.md): a recurrence is the payer's authorization to be debited each
 * cycle; a recurring charge is one cycle's debit. Pure: statuses, their moves, the merchant's events,
 * and the calendar rules (dates are calendar days in Brasília, `YYYY-MM-DD`).
 */

export const RECURRENCE_STATUSES = ['pending_authorization', 'active', 'rejected', 'expired', 'cancelled', 'ended'] as const;
export type RecurrenceStatus = (typeof RECURRENCE_STATUSES)[number];

export const RECURRING_CHARGE_STATUSES = ['scheduled', 'retrying', 'paid', 'failed', 'cancelled', 'expired'] as const;
export type RecurringChargeStatus = (typeof RECURRING_CHARGE_STATUSES)[number];
/**
 * A charge as stored: besides the statuses merchants see, `pending`, the gateway's own, while the
 * PSP has been asked for it and has not answered. It holds its cycle, so a second request for that
 * cycle is refused before reaching the PSP; it is never shown to merchants.
 */
export type StoredChargeStatus = RecurringChargeStatus | 'pending';

export const FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'semiannual', 'annual'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export const RETRY_POLICIES = ['none', 'three_in_seven_days'] as const;
export type RetryPolicy = (typeof RETRY_POLICIES)[number];

/**
 * `qr` JORNADA_2, `qr_with_first_payment` JORNADA_3 (the composite QR also pays an immediate charge),
 * `qr_with_due_payment` JORNADA_4 (it also pays a due-date charge), `request` JORNADA_1 (the Pix
 * API's journeys).
 */
export const JOURNEYS = ['qr', 'qr_with_first_payment', 'qr_with_due_payment', 'request'] as const;
export type Journey = (typeof JOURNEYS)[number];

/** The journeys whose composite QR also pays a first payment the gateway creates with the recurrence. */
export const FIRST_PAYMENT_JOURNEYS = ['qr_with_first_payment', 'qr_with_due_payment'] as const;
export type FirstPaymentJourney = (typeof FIRST_PAYMENT_JOURNEYS)[number];

export function hasFirstPayment(journey: Journey): journey is FirstPaymentJourney {
  return (FIRST_PAYMENT_JOURNEYS as readonly string[]).includes(journey);
}

export const CANCELLERS = ['merchant', 'payer', 'psp'] as const;
export type Canceller = (typeof CANCELLERS)[number];

/** How one settlement attempt of a charge ended, or that it is still under way. */
export const ATTEMPT_STATUSES = ['scheduled', 'paid', 'failed', 'cancelled', 'expired'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

const RECURRENCE_MOVES: Readonly<Record<RecurrenceStatus, readonly RecurrenceStatus[]>> = {
  pending_authorization: ['active', 'rejected', 'expired', 'cancelled'],
  active: ['cancelled', 'ended'],
  rejected: [],
  expired: [],
  cancelled: [],
  ended: [],
};

const CHARGE_MOVES: Readonly<Record<StoredChargeStatus, readonly RecurringChargeStatus[]>> = {
  // The PSP's word about a charge it was asked for, however it arrives (its answer, a callback, a read-back).
  pending: ['scheduled', 'paid', 'failed', 'cancelled', 'expired', 'retrying'],
  scheduled: ['paid', 'failed', 'cancelled', 'expired', 'retrying'],
  retrying: ['paid', 'failed', 'cancelled', 'expired'],
  paid: [],
  failed: [],
  cancelled: [],
  expired: [],
};

export function canRecurrenceMove(from: RecurrenceStatus, to: RecurrenceStatus): boolean {
  return RECURRENCE_MOVES[from].includes(to);
}

export function canChargeMove(from: StoredChargeStatus, to: RecurringChargeStatus): boolean {
  // A retrying charge stays retrying while each new attempt is asked for.
  return (from === 'retrying' && to === 'retrying') || CHARGE_MOVES[from].includes(to);
}

export function isRecurrenceFinal(status: RecurrenceStatus): boolean {
  return RECURRENCE_MOVES[status].length === 0;
}

export function isChargeFinal(status: StoredChargeStatus): boolean {
  return CHARGE_MOVES[status].length === 0;
}

/** A cancelled or rejected (failed at once) charge frees its cycle; any other, a pending one included, holds it. */
export function chargeHoldsCycle(status: StoredChargeStatus): boolean {
  return status !== 'cancelled' && status !== 'failed';
}

/** What merchants receive about recurrences and their charges (docs/webhooks.md). */
export const RECURRENCE_EVENT_TYPES = ['recurrence.authorized', 'recurrence.rejected', 'recurrence.expired', 'recurrence.cancelled'] as const;
export type RecurrenceEventType = (typeof RECURRENCE_EVENT_TYPES)[number];

export const RECURRING_CHARGE_EVENT_TYPES = [
  'recurring_charge.paid',
  'recurring_charge.failed',
  'recurring_charge.retrying',
  'recurring_charge.cancelled',
  'recurring_charge.expired',
] as const;
export type RecurringChargeEventType = (typeof RECURRING_CHARGE_EVENT_TYPES)[number];

/** The event a recurrence's move to `status` sends, or null (`ended` is read, not sent). */
export function recurrenceEventFor(status: RecurrenceStatus): RecurrenceEventType | null {
  switch (status) {
    case 'active':
      return 'recurrence.authorized';
    case 'rejected':
      return 'recurrence.rejected';
    case 'expired':
      return 'recurrence.expired';
    case 'cancelled':
      return 'recurrence.cancelled';
    case 'pending_authorization':
    case 'ended':
      return null;
  }
}

/** The event a charge's move to `status` sends, or null. */
export function chargeEventFor(status: RecurringChargeStatus): RecurringChargeEventType | null {
  switch (status) {
    case 'paid':
      return 'recurring_charge.paid';
    case 'failed':
      return 'recurring_charge.failed';
    case 'retrying':
      return 'recurring_charge.retrying';
    case 'cancelled':
      return 'recurring_charge.cancelled';
    case 'expired':
      return 'recurring_charge.expired';
    case 'scheduled':
      return null;
  }
}

/** `three_in_seven_days`: at most this many retries after the first attempt… */
export const MAX_RETRIES = 3;
/** …each dated no later than the due date plus this many days. */
export const RETRY_WINDOW_DAYS = 7;

// ---- Calendar days (YYYY-MM-DD), in Brasília -------------------------------------------------

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** Whether `value` is a real calendar date written `YYYY-MM-DD` (2026-02-30 is not). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const BRASILIA = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar day it is in Brasília at `now`. */
export function brasiliaDate(now: Date): string {
  return BRASILIA.format(now);
}

function toUtcMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function fromUtcMs(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return fromUtcMs(toUtcMs(date) + days * DAY_MS);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtcMs(to) - toUtcMs(from)) / DAY_MS);
}

/** Calendar months a frequency's cycle spans, or null for weekly. */
function cycleMonths(frequency: Frequency): number | null {
  switch (frequency) {
    case 'weekly':
      return null;
    case 'monthly':
      return 1;
    case 'quarterly':
      return 3;
    case 'semiannual':
      return 6;
    case 'annual':
      return 12;
  }
}

/**
 * Which cycle of a recurrence starting on `startDate` the day `date` falls in: 0 for the first,
 * -1 before the start. Cycles begin on the start date and on the same day of each following
 * period (a month's cycle that begins on the 31st begins on the last day of shorter months).
 */
export function cycleOf(startDate: string, frequency: Frequency, date: string): number {
  const months = cycleMonths(frequency);
  if (months === null) return Math.floor(daysBetween(startDate, date) / 7);
  const [sy, sm] = startDate.split('-').map(Number) as [number, number];
  const [dy, dm] = date.split('-').map(Number) as [number, number];
  let elapsed = (dy - sy) * 12 + (dm - sm);
  // Not yet at this month's cycle start: still in the previous month's.
  if (date < cycleStartAfterMonths(startDate, elapsed)) elapsed -= 1;
  return Math.floor(elapsed / months);
}

/** The first day of cycle `index` of a recurrence. */
export function cycleStart(startDate: string, frequency: Frequency, index: number): string {
  const months = cycleMonths(frequency);
  if (months === null) return addDays(startDate, index * 7);
  return cycleStartAfterMonths(startDate, index * months);
}

function cycleStartAfterMonths(startDate: string, months: number): string {
  const [y, m, d] = startDate.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return fromUtcMs(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, lastDay)));
}

/** How many days ahead of its due date a bank takes a recurring charge (its profile cites the page). */
export interface LeadTime {
  minDays: number;
  maxDays: number;
}

export type DueDateProblem = 'before_today' | 'before_start' | 'after_end' | 'too_soon' | 'too_far';

/** Why `dueDate` cannot be a charge's, or null when it can. */
export function dueDateProblem(dueDate: string, today: string, recurrence: { startDate: string; endDate: string | null }, lead: LeadTime): DueDateProblem | null {
  if (dueDate < today) return 'before_today';
  if (dueDate < recurrence.startDate) return 'before_start';
  if (recurrence.endDate !== null && dueDate > recurrence.endDate) return 'after_end';
  const ahead = daysBetween(today, dueDate);
  if (ahead < lead.minDays) return 'too_soon';
  if (ahead > lead.maxDays) return 'too_far';
  return null;
}

/**
 * The date of the next retry of a charge due on `dueDate` whose last attempt was on `lastAttempt`,
 * asked for on `today`: the next day after both, within the window, or null when the policy allows
 * no more (`retriesSoFar` already MAX_RETRIES, or the window has closed).
 */
export function nextRetryDate(dueDate: string, lastAttempt: string, today: string, retriesSoFar: number): string | null {
  if (retriesSoFar >= MAX_RETRIES) return null;
  const after = lastAttempt > today ? lastAttempt : today;
  const next = addDays(after, 1);
  return next <= addDays(dueDate, RETRY_WINDOW_DAYS) ? next : null;
}

import {
  canChargeMove,
  canRecurrenceMove,
  chargeEventFor,
  nextRetryDate,
  recurrenceEventFor,
  type RecurrenceEventType,
  type RecurrenceStatus,
  type RecurringChargeEventType,
  type RecurringChargeStatus,
  type RetryPolicy,
  type StoredChargeStatus,
} from '../domain/recurrence';
import type { ProviderRecurrence, ProviderRecurringCharge } from '../providers/recurring';

export interface RecurrenceDecision {
  /** The status it moves to, or null when the report changes nothing (or is not a move allowed). */
  to: RecurrenceStatus | null;
  event: RecurrenceEventType | null;
  note: string | null;
}

/** What a PSP's word about a recurrence does to the one the gateway holds. Pure. */
export function decideRecurrence(current: RecurrenceStatus, report: ProviderRecurrence): RecurrenceDecision {
  if (report.status === current) return { to: null, event: null, note: null };
  if (!canRecurrenceMove(current, report.status)) return { to: null, event: null, note: `A recurrence cannot move from ${current} to ${report.status}.` };
  return { to: report.status, event: recurrenceEventFor(report.status), note: null };
}

export type ChargeDecision =
  /** The charge moves (and the merchant hears of it when `event` is set). */
  | { kind: 'move'; to: RecurringChargeStatus; event: RecurringChargeEventType | null }
  /** An attempt failed and the policy allows another: the charge is `retrying`, and the PSP is asked for one on `date`. */
  | { kind: 'retry'; date: string }
  /** Nothing moves; the attempts are still recorded. */
  | { kind: 'none'; note: string | null };

/**
 * What a PSP's word about a charge does to the one the gateway holds. Pure. A failed attempt under
 * `three_in_seven_days` is retried while the PSP still holds the charge open, fewer than three
 * retries were asked for, a date within the due date + 7 days remains, and no retry asked for is
 * still to be attempted (the PSP lists one attempt per try; `retries` counts what the gateway asked).
 */
export function decideCharge(
  current: { status: StoredChargeStatus; retries: number; dueDate: string },
  policy: RetryPolicy,
  report: ProviderRecurringCharge,
  today: string,
): ChargeDecision {
  if (report.status === 'failed') {
    const tried = report.attempts.length;
    const retryAskedNotYetTried = tried <= current.retries;
    if (retryAskedNotYetTried && current.status === 'retrying') return { kind: 'none', note: null };
    if (policy === 'three_in_seven_days' && report.open && (current.status === 'pending' || current.status === 'scheduled' || current.status === 'retrying')) {
      const last = report.attempts[report.attempts.length - 1]?.date ?? current.dueDate;
      const date = nextRetryDate(current.dueDate, last, today, current.retries);
      if (date !== null) return { kind: 'retry', date };
    }
  }
  // A pending charge the PSP holds is scheduled: the merchant hears nothing (its create answers it).
  if (report.status === 'scheduled') return current.status === 'pending' ? { kind: 'move', to: 'scheduled', event: null } : { kind: 'none', note: null };
  if (report.status === current.status) return { kind: 'none', note: null };
  if (!canChargeMove(current.status, report.status)) return { kind: 'none', note: `A recurring charge cannot move from ${current.status} to ${report.status}.` };
  return { kind: 'move', to: report.status, event: chargeEventFor(report.status) };
}

import { BRAZIL_CALENDAR } from '../../common/calendar/brazil-calendar';
import { amountDueCents } from '../../domain/due-charge';
import { centsToDecimalString } from '../../domain/money';
import { brasiliaDate } from '../../domain/recurrence';
import type { Payment } from '../payment.entity';

export interface DueMismatch {
  paidCents: number;
  dueCents: number;
  /** The day it was paid, in Brasília. */
  on: string;
  note: string;
}

/**
 * How a due-date charge's payment differs from what was due the day it was paid, when by more than
 * a centavo (docs/due-charges.md): null for an immediate charge, an unknown amount, or a match.
 */
export function dueMismatch(payment: Pick<Payment, 'due' | 'amountCents'>, paidCents: number | null, paidAt: Date): DueMismatch | null {
  if (!payment.due || paidCents === null) return null;
  const on = brasiliaDate(paidAt);
  const dueCents = amountDueCents(payment.amountCents, payment.due, on, BRAZIL_CALENDAR);
  if (Math.abs(paidCents - dueCents) <= 1) return null;
  return {
    paidCents,
    dueCents,
    on,
    note: `Paid ${centsToDecimalString(paidCents)} on ${on}, when ${centsToDecimalString(dueCents)} was due; recorded as paid (the money has moved).`,
  };
}

import { formatMoney } from '../format';
import type { Frequency, Recurrence } from '../types';

/** "month" for "R$ 89,90 / month". */
const PER: Record<Frequency, string> = { weekly: 'week', monthly: 'month', quarterly: 'quarter', semiannual: 'half-year', annual: 'year' };

/** What the payer authorized, in words: "R$ 89,90 / month", or "from R$ 50,00 / month" for a variable recurrence. */
export function recurrenceAmount(r: Pick<Recurrence, 'amount' | 'minimumAmount' | 'frequency'>): string {
  if (r.amount != null) return `${formatMoney(r.amount)} / ${PER[r.frequency]}`;
  return `from ${formatMoney(r.minimumAmount ?? 0)} / ${PER[r.frequency]}`;
}

/** A calendar day (`YYYY-MM-DD`, Brasília) as the operator reads dates, without moving it across time zones. */
export function formatCalendarDay(day: string | null | undefined): string {
  if (!day) return '—';
  const [y, m, d] = day.split('-').map(Number);
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(y!, m! - 1, d));
}

/** How the payer is asked, in words. */
export const JOURNEY_LABELS: Record<Recurrence['journey'], string> = {
  qr: 'QR code',
  qr_with_first_payment: 'QR code with a first payment',
  qr_with_due_payment: 'QR code with a first payment due on a date',
  request: "Request to the payer's bank",
};

export const RETRY_LABELS: Record<Recurrence['retryPolicy'], string> = {
  none: 'No retries',
  three_in_seven_days: 'Up to 3 retries within 7 days',
};

export const CANCELLER_LABELS: Record<NonNullable<Recurrence['cancelledBy']>, string> = {
  merchant: 'the merchant',
  payer: 'the payer, at their bank',
  psp: 'the PSP',
};

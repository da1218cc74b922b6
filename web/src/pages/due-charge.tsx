import { formatDate, formatMoney, toCents } from '../format';
import type { PaymentDetail, PaymentEvent } from '../types';
import { Button, Card, Notice } from '../ui';
import { formatCalendarDay } from './recurrence-format';

/**
 * A due-date charge on the payment page (docs/due-charges.md): its terms as created, what the payer
 * owes today, until when it can be paid, and a payment of another amount than was due, which the
 * gateway records as paid anyway and the operator must settle with the payer.
 */

export type DueTerms = NonNullable<PaymentDetail['due']>;
type Discount = NonNullable<DueTerms['discount']>;

const percentNumber = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });
/** A percent as the API gives it (2.5 is 2,5%), written as the reais beside it are. */
export const formatPercentValue = (value: number): string => `${percentNumber.format(value)}%`;

const DAYS: Record<'calendar' | 'business', string> = { calendar: 'calendar days', business: 'business days' };
const DAY: Record<'calendar' | 'business', string> = { calendar: 'calendar day', business: 'business day' };

/** The fine in words: "2% of the amount, once". */
export function describeFine(fine: NonNullable<DueTerms['fine']>): string {
  return fine.type === 'fixed' ? `${formatMoney(fine.value)}, once` : `${formatPercentValue(fine.value)} of the amount, once`;
}

/** The interest in words: "1% a month, counted in calendar days". */
export function describeInterest(interest: NonNullable<DueTerms['interest']>): string {
  const rate = {
    amount_per_day: `${formatMoney(interest.value)} a day`,
    percent_per_day: `${formatPercentValue(interest.value)} a day`,
    percent_per_month: `${formatPercentValue(interest.value)} a month`,
    percent_per_year: `${formatPercentValue(interest.value)} a year`,
  }[interest.type];
  return `${rate}, counted in ${DAYS[interest.days]}`;
}

/** Each of the discount's lines: one per date for a fixed-date discount, one for a per-day one. */
export function describeDiscount(discount: Discount): string[] {
  if (discount.type === 'fixed_until' || discount.type === 'percent_until') {
    return (discount.until ?? []).map(
      (entry) => `${discount.type === 'fixed_until' ? formatMoney(entry.value) : formatPercentValue(entry.value)} off if paid by ${formatCalendarDay(entry.date)}`,
    );
  }
  const value = discount.value ?? 0;
  const per = discount.type === 'amount_per_day_early' ? formatMoney(value) : formatPercentValue(value);
  return [`${per} off for each ${DAY[discount.days ?? 'calendar']} paid before the due date`];
}

/** The abatement in words: "R$ 10,00 off, whenever paid". */
export function describeAbatement(abatement: NonNullable<DueTerms['abatement']>): string {
  return abatement.type === 'fixed' ? `${formatMoney(abatement.value)} off, whenever paid` : `${formatPercentValue(abatement.value)} off the amount, whenever paid`;
}

/** Days from `from` to `to`, two calendar days (`YYYY-MM-DD`). */
export function daysFrom(from: string, to: string): number {
  const at = (day: string) => {
    const [y, m, d] = day.split('-').map(Number);
    return Date.UTC(y!, m! - 1, d);
  };
  return Math.round((at(to) - at(from)) / 86_400_000);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** Where today stands against the charge's dates, on the gateway's clock: "3 days before the due date", "5 days late". */
export function dueStanding(dates: NonNullable<PaymentDetail['due_dates']>): string {
  const today = dates.amount_due_on;
  if (today > dates.last_payable_date) return 'past its last payable day';
  const left = daysFrom(today, dates.effective_due_date);
  if (left > 0) return `${plural(left, 'day')} before the due date`;
  if (left === 0) return 'due today';
  return `${plural(-left, 'day')} late`;
}

/** Why what is owed today differs from the amount: a discount or abatement takes off, a fine and interest add. */
function dueDifference(payment: Pick<PaymentDetail, 'amount' | 'amountDue'>): string | null {
  if (payment.amountDue == null) return null;
  const cents = toCents(payment.amountDue) - toCents(payment.amount);
  if (cents === 0) return 'the amount as created';
  return cents < 0 ? `${formatMoney(-cents / 100)} less than the amount` : `${formatMoney(cents / 100)} more than the amount`;
}

function None() {
  return <span className="muted">none</span>;
}

/** The "Due date" card: the charge's terms, today's amount while it can be paid, and its last day. */
export function DueTermsCard({ payment }: { payment: PaymentDetail }) {
  const due = payment.due;
  if (!due) return null;
  const dates = payment.due_dates ?? null;
  const moved = dates && dates.effective_due_date !== due.date;
  const open = payment.status === 'pending';
  const difference = dueDifference(payment);
  return (
    <Card title="Due date" className="due-card">
      <dl className="fields fields-wide">
        <dt>Due date</dt>
        <dd className="prose">
          {formatCalendarDay(due.date)}
          {moved && <div className="muted small">A weekend or holiday: payable without fine until {formatCalendarDay(dates.effective_due_date)}.</div>}
        </dd>
        {open && payment.amountDue != null && (
          <>
            <dt>Amount due today</dt>
            <dd className="prose">
              <span className="strong" data-testid="amount-due">
                {formatMoney(payment.amountDue)}
              </span>
              <div className="muted small">
                {[difference, dates ? dueStanding(dates) : null].filter(Boolean).join(' · ')}
                {dates && <> (on {formatCalendarDay(dates.amount_due_on)})</>}
              </div>
            </dd>
          </>
        )}
        <dt>Last payable day</dt>
        <dd className="prose">
          {dates ? formatCalendarDay(dates.last_payable_date) : <span className="muted">—</span>}
          <div className="muted small">{plural(due.daysAfterDue, 'day')} after the due date; unpaid, it then expires.</div>
        </dd>
        <dt>Fine</dt>
        <dd className="prose">
          {due.fine ? (
            <>
              {describeFine(due.fine)} <span className="muted small">(when paid after the due date)</span>
            </>
          ) : (
            <None />
          )}
        </dd>
        <dt>Interest</dt>
        <dd className="prose">
          {due.interest ? (
            <>
              {describeInterest(due.interest)} <span className="muted small">(for each day late)</span>
            </>
          ) : (
            <None />
          )}
        </dd>
        <dt>{due.discount && describeDiscount(due.discount).length > 1 ? 'Discounts' : 'Discount'}</dt>
        <dd className="prose">
          {due.discount ? (
            <ul className="plain-list">
              {describeDiscount(due.discount).map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : (
            <None />
          )}
        </dd>
        <dt>Abatement</dt>
        <dd className="prose">{due.abatement ? describeAbatement(due.abatement) : <None />}</dd>
      </dl>
    </Card>
  );
}

/** The payer's address a due-date charge carries, on one line: "Rua das Flores, 80 · Recife – PE · CEP 50050-000". */
export function formatAddress(address: NonNullable<PaymentDetail['recipient']['address']>): string {
  const zip = /^\d{8}$/.test(address.zip) ? `${address.zip.slice(0, 5)}-${address.zip.slice(5)}` : address.zip;
  return `${address.street} · ${address.city} – ${address.state} · CEP ${zip}`;
}

/** Whether an event is a due-date charge's payment of another amount than was due: recorded as paid, not refused. */
export function isPaidMismatch(event: Pick<PaymentEvent, 'outcome'>, payment: Pick<PaymentDetail, 'due'>): boolean {
  return event.outcome === 'amount_mismatch' && !!payment.due;
}

/** The history's last payment of another amount than was due, for a due-date charge. */
export function paidMismatch(payment: Pick<PaymentDetail, 'due' | 'events'>): PaymentEvent | undefined {
  return [...payment.events].reverse().find((event) => isPaidMismatch(event, payment));
}

/**
 * The notice at the top of a due-date charge paid with another amount than was due that day: the
 * payment is paid (the money has moved), and the difference is the operator's to settle with the
 * payer: more paid can be refunded from here, less is collected some other way.
 */
export function AmountMismatchNotice({ payment, onRefund }: { payment: PaymentDetail; onRefund: (cents: number) => void }) {
  const event = paidMismatch(payment);
  if (!event) return null;
  const paid = event.amount ?? null;
  const due = event.amount_due ?? null;
  const when = payment.paidAt ? formatDate(payment.paidAt) : formatDate(event.created_at);
  if (paid === null || due === null) {
    return (
      <Notice kind="warning">
        <strong>Paid a different amount than was due.</strong> {event.note} The payment counts as paid; settle the difference with the payer.
      </Notice>
    );
  }
  const cents = toCents(paid) - toCents(due);
  const over = cents > 0;
  const difference = formatMoney(Math.abs(cents) / 100);
  return (
    <Notice kind="warning">
      <div className="notice-action">
        <div>
          <strong>
            Paid {difference} {over ? 'more' : 'less'} than was due.
          </strong>{' '}
          The payer paid {formatMoney(paid)} on {when}, when {formatMoney(due)} was due. The payment counts as paid: the money has moved.{' '}
          {over ? 'Refund the difference unless the payer owes it.' : 'Collect the rest from the payer another way, if it is owed.'}
        </div>
        {over && payment.can_refund && (
          <Button kind="primary" onClick={() => onRefund(cents)}>
            Refund {difference}
          </Button>
        )}
      </div>
    </Notice>
  );
}

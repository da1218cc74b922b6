import { centsToDecimalString } from '../../domain/money';
import { canTransition, isClosedUnpaid, type PaymentStatus } from '../../domain/payment-status';
import type { EventOutcome } from './payment-event.entity';
import { statusForEvent, type PaymentEventType } from '../../domain/provider-event';

/** What an event asks for, as far as the decision is concerned. */
export interface EventFacts {
  type: PaymentEventType;
  amountCents: number | null;
}

/** The payment the event resolved to (already locked), or null when none matched. */
export interface PaymentFacts {
  status: PaymentStatus;
  amountCents: number;
  /**
   * A due-date charge: what is paid depends on the day (discounts, fine, interest), so the amount
   * is not a reason to refuse the money; the caller records a difference from the amount due.
   */
  due?: boolean;
}

export interface EventDecision {
  outcome: EventOutcome;
  /** The status the event asks for. */
  target: PaymentStatus;
  /** Why it was not applied, or what an applied payment after close means, for the payment's history. */
  note: string | null;
  /** Applied to a payment closed unpaid (cancelled, expired): money received after close. */
  paidAfterClose: boolean;
}

/**
 * What the gateway does with one provider event (docs/api.md, States). Pure, so every branch is
 * unit-tested; the caller holds the payment's row lock while acting on the answer.
 *
 * The amount is checked before the transition: a confirmation for the wrong amount must never mark
 * a payment paid, and recording it as a mismatch (rather than "ignored") is what an operator needs
 * to see, whatever state the payment is in.
 */
export function decideEvent(payment: PaymentFacts | null, event: EventFacts): EventDecision {
  const target = statusForEvent(event.type);
  if (!payment) return { outcome: 'unmatched', target, note: 'No payment of this provider has this id.', paidAfterClose: false };
  if (!payment.due && event.amountCents !== null && event.amountCents !== payment.amountCents) {
    return {
      outcome: 'amount_mismatch',
      target,
      note: `Event amount ${centsToDecimalString(event.amountCents)} does not match the payment amount ${centsToDecimalString(payment.amountCents)}.`,
      paidAfterClose: false,
    };
  }
  if (payment.status === target) return { outcome: 'ignored', target, note: `The payment is already ${target}.`, paidAfterClose: false };
  if (!canTransition(payment.status, target)) {
    return { outcome: 'ignored', target, note: `A ${payment.status} payment cannot become ${target}.`, paidAfterClose: false };
  }
  // A Pix is money whatever the payment's state (docs/api.md, States): it is recorded as received, and flagged.
  if (target === 'paid' && isClosedUnpaid(payment.status)) {
    return { outcome: 'applied', target, note: `Paid after the payment was ${payment.status}: the money was received and must go back to the payer.`, paidAfterClose: true };
  }
  return { outcome: 'applied', target, note: null, paidAfterClose: false };
}

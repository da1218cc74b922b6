import { centsToDecimalString } from '../domain/money';
import { canTransition, type PaymentStatus } from '../domain/payment-status';
import type { EventOutcome } from './payment-event.entity';
import { statusForEvent, type PaymentEventType } from '../domain/provider-event';

/** What an event asks for, as far as the decision is concerned. */
export interface EventFacts {
  type: PaymentEventType;
  amountCents: number | null;
}

/** The payment the event resolved to (already locked), or null when none matched. */
export interface PaymentFacts {
  status: PaymentStatus;
  amountCents: number;
}

export interface EventDecision {
  outcome: EventOutcome;
  /** The status the event asks for. */
  target: PaymentStatus;
  /** Why it was not applied, for the payment's history. */
  note: string | null;
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
  if (!payment) return { outcome: 'unmatched', target, note: 'No payment of this provider has this id.' };
  if (event.amountCents !== null && event.amountCents !== payment.amountCents) {
    return {
      outcome: 'amount_mismatch',
      target,
      note: `Event amount ${centsToDecimalString(event.amountCents)} does not match the payment amount ${centsToDecimalString(payment.amountCents)}.`,
    };
  }
  if (payment.status === target) return { outcome: 'ignored', target, note: `The payment is already ${target}.` };
  if (!canTransition(payment.status, target)) {
    return { outcome: 'ignored', target, note: `A ${payment.status} payment cannot become ${target}.` };
  }
  return { outcome: 'applied', target, note: null };
}

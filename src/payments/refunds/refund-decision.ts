import { centsToDecimalString } from '../../domain/money';
import { isRefundable, type PaymentStatus } from '../../domain/payment-status';
import type { RefundStatus } from '../../domain/refund';
import type { EventOutcome } from '../lifecycle/payment-event.entity';

/** The payment a refund report is about, locked by the caller. */
export interface RefundedPaymentFacts {
  status: PaymentStatus;
  amountCents: number;
  refundedAmountCents: number;
}

/** A refund the gateway already holds, or what the PSP reports of one. */
export interface RefundFacts {
  status: RefundStatus;
  amountCents: number;
}

export type RefundDecision =
  | {
      outcome: 'applied';
      /** The refund's status after the report. */
      refund: RefundStatus;
      /** The payment's move when money was returned; null when it stays as it is. */
      payment: { status: PaymentStatus; refundedAmountCents: number } | null;
      note: null;
    }
  | { outcome: Exclude<EventOutcome, 'applied' | 'unmatched'>; note: string };

/**
 * What the gateway does with reports of one refund (docs/api.md, Refunds). Pure, so every branch is
 * unit-tested; the caller holds the payment's row lock. `known` is the refund the report matched
 * (by the PSP's id, or the gateway's own request), null for one made outside the gateway.
 *
 * Only a pending refund moves, and only once; the payment's refunded amount grows only by a
 * refund that succeeded, never past what was paid, and its status follows from the sum.
 */
export function decideRefund(payment: RefundedPaymentFacts, known: RefundFacts | null, report: RefundFacts): RefundDecision {
  if (known && known.amountCents !== report.amountCents) {
    return {
      outcome: 'amount_mismatch',
      note: `The PSP reports ${centsToDecimalString(report.amountCents)} for a refund of ${centsToDecimalString(known.amountCents)}.`,
    };
  }
  if (known && known.status !== 'pending') {
    return { outcome: 'ignored', note: known.status === report.status ? `The refund is already ${known.status}.` : `A ${known.status} refund cannot become ${report.status}.` };
  }
  if (report.status === 'pending') {
    if (known) return { outcome: 'ignored', note: 'The refund is still pending.' };
    if (!isRefundable(payment.status)) return { outcome: 'ignored', note: `A ${payment.status} payment has nothing to refund.` };
    return { outcome: 'applied', refund: 'pending', payment: null, note: null };
  }
  if (report.status === 'failed') return { outcome: 'applied', refund: 'failed', payment: null, note: null };

  if (!isRefundable(payment.status)) return { outcome: 'ignored', note: `A ${payment.status} payment has nothing to refund.` };
  const refunded = payment.refundedAmountCents + report.amountCents;
  if (refunded > payment.amountCents) {
    return {
      outcome: 'amount_mismatch',
      note: `A refund of ${centsToDecimalString(report.amountCents)} would return more than the ${centsToDecimalString(payment.amountCents - payment.refundedAmountCents)} left.`,
    };
  }
  return {
    outcome: 'applied',
    refund: 'succeeded',
    payment: { status: refunded === payment.amountCents ? 'refunded' : 'partially_refunded', refundedAmountCents: refunded },
    note: null,
  };
}

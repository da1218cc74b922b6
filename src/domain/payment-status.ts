export const PAYMENT_STATUSES = ['pending', 'paid', 'expired', 'cancelled', 'failed', 'partially_refunded', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * The only moves a payment makes (docs/api.md, States): pending → paid | expired | cancelled | failed;
 * paid → partially_refunded → refunded, or paid → refunded at once. Refunds move a payment only
 * through the refunds' own bookkeeping (src/payments/refunds/refund-decision.ts), never a bare status.
 * expired | cancelled → paid is money received after close (isClosedUnpaid): a Pix the PSP reports
 * is never ignored, and the payment says so with `paidAfterClose`.
 */
const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  pending: ['paid', 'expired', 'cancelled', 'failed'],
  paid: ['partially_refunded', 'refunded'],
  partially_refunded: ['refunded'],
  expired: ['paid'],
  cancelled: ['paid'],
  failed: [],
  refunded: [],
};

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Statuses in which money was received and part of it may still be returned. */
export function isRefundable(status: PaymentStatus): boolean {
  return status === 'paid' || status === 'partially_refunded';
}

/**
 * Closed without money, by the gateway or the PSP: a Pix still reported for such a payment was
 * received after close (docs/api.md, States). `failed` is not one: the PSP itself refused the charge.
 */
export function isClosedUnpaid(status: PaymentStatus): boolean {
  return status === 'cancelled' || status === 'expired';
}

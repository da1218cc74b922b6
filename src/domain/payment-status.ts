export const PAYMENT_STATUSES = ['pending', 'paid', 'expired', 'cancelled', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The only moves a payment makes (docs/api.md, States): pending → paid | expired | cancelled | failed; paid → refunded. */
const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  pending: ['paid', 'expired', 'cancelled', 'failed'],
  paid: ['refunded'],
  expired: [],
  cancelled: [],
  failed: [],
  refunded: [],
};

export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

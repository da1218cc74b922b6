/** A refund's life: pending at the PSP until it settles one way or the other (docs/api.md, Refunds). */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * Who asked for the money back: the merchant (API or dashboard), the PSP's own portal, a MED return
 * (Mecanismo Especial de Devolução), or the gateway itself for an orphan charge routing left paid.
 */
export const REFUND_ORIGINS = ['merchant', 'psp', 'med', 'routing'] as const;
export type RefundOrigin = (typeof REFUND_ORIGINS)[number];

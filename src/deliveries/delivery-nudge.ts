/**
 * Lets intake wake the delivery worker right after a commit that queued a delivery, so a forward
 * goes out at once instead of at the worker's next poll. The deliveries module provides it
 * (`{ provide: DELIVERY_NUDGE, useExisting: DeliveryWorker }`); without it, polling still delivers.
 */
export const DELIVERY_NUDGE = Symbol('DELIVERY_NUDGE');

export interface DeliveryNudge {
  /** Must return at once and never throw: it runs after the intake transaction has committed. */
  nudge(): void;
}

/**
 * The time, as the gateway's scheduling sees it: when a delivery is due again, when a payment is
 * old enough to reconcile or past its expiry, when an idempotency record may be purged. Injected
 * (ConfigModule provides the system clock) so tests can move time instead of waiting for it.
 *
 * Statements that must agree across processes on one database (leases, fencing) use the
 * database's own now() and do not read this clock.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

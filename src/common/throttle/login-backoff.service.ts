import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { consume, LimiterStore, rateLimited } from './limiter-store';

/** Failed sign-ins to one account, from any addresses, before it backs off. */
export const ACCOUNT_FREE_FAILURES = 10;
/** Longest back-off: an attacker can slow the real operator down by this much, never lock them out. */
export const ACCOUNT_MAX_BACKOFF_SECONDS = 60;
/** Failures to an account are forgotten this long after the first of them (or at its next success). */
const ACCOUNT_FAILURE_MEMORY_SECONDS = 3600;
/**
 * Once backing off, one attempt at a time may check a password; this long at most, so a process
 * that dies mid-check does not hold the account.
 */
const ATTEMPT_SLOT_SECONDS = 10;

/** Seconds an account waits after its `failures`-th consecutive failure: 0 before the 10th, then 2, 4, 8 … up to 60. */
export function accountBackoffSeconds(failures: number): number {
  if (failures < ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_MAX_BACKOFF_SECONDS, 2 ** Math.min(failures - ACCOUNT_FREE_FAILURES + 1, 10));
}

/** What `begin` hands back: tell it how the password check went. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
}

/**
 * Dashboard sign-in back-off per account (the email submitted, normalised), on top of the
 * per-address throttle: rate-limiter-flexible's login brute-force pattern of counting consecutive
 * failures by username and resetting them on success. After ACCOUNT_FREE_FAILURES failures from any
 * addresses the account answers 429 with a Retry-After that doubles with each further failure up to
 * ACCOUNT_MAX_BACKOFF_SECONDS; a right password after the wait signs in and clears the count.
 *
 * Every attempt is counted before its password is checked (and given back when refused), so sign-ins
 * sent in parallel count one by one; once backing off, one attempt per back-off period gets to check
 * a password (the `slot` limiter, one point), the others get 429.
 */
@Injectable()
export class LoginBackoffService {
  /** Attempts since the last success, the one in progress included. */
  private readonly attempts: RateLimiterAbstract;
  /** While backing off: blocked for the back-off, then one point for the next attempt to take. */
  private readonly slot: RateLimiterAbstract;

  constructor(store: LimiterStore) {
    this.attempts = store.create({ name: 'login-account:', points: Number.MAX_SAFE_INTEGER, duration: ACCOUNT_FAILURE_MEMORY_SECONDS });
    this.slot = store.create({ name: 'login-slot:', points: 1, duration: ATTEMPT_SLOT_SECONDS });
  }

  /** Counts an attempt on `account`; 429 with Retry-After when the account is backing off. */
  async begin(account: string): Promise<LoginAttempt> {
    const { res } = await consume(this.attempts, account);
    if (res.consumedPoints > ACCOUNT_FREE_FAILURES) {
      const turn = await consume(this.slot, account);
      if (!turn.allowed) {
        // A refused attempt is not a failure: it must not lengthen the back-off.
        await this.attempts.reward(account);
        throw rateLimited(Math.min(turn.res.msBeforeNext, ACCOUNT_MAX_BACKOFF_SECONDS * 1000), 'Too many failed sign-ins to this account.');
      }
    }
    const failures = res.consumedPoints;
    return {
      succeeded: async () => {
        await Promise.all([this.attempts.delete(account), this.slot.delete(account)]);
      },
      failed: async () => {
        const wait = accountBackoffSeconds(failures);
        if (wait > 0) await this.slot.block(account, wait);
      },
    };
  }
}

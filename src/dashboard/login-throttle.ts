/** How failed sign-ins are slowed down: a few free tries, then blocks that double with each failure. */
export interface LoginThrottlePolicy {
  /** Failures allowed before the first block. */
  freeFailures: number;
  /** Length of the first block; each further failure doubles it. */
  baseBlockMs: number;
  /** Longest block. */
  maxBlockMs: number;
  /** A key's failures are forgotten this long after its last failure. */
  forgetAfterMs: number;
  /** Most keys remembered; the least recently failed are dropped first. */
  maxEntries: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicy = {
  freeFailures: 5,
  baseBlockMs: 1_000,
  maxBlockMs: 15 * 60_000,
  forgetAfterMs: 60 * 60_000,
  maxEntries: 10_000,
};

interface Entry {
  failures: number;
  blockedUntil: number;
  lastFailure: number;
}

/**
 * Backoff and lockout for dashboard sign-ins, per client IP and per submitted email, so neither
 * guessing many passwords from one place nor one account from many places goes fast. After
 * `freeFailures` failures each new failure blocks the key for 1 s, 2 s, 4 s … up to 15 min; a
 * blocked key is refused before the password is even checked. A success clears the keys involved.
 *
 * Kept in memory, per process: with N gateway processes an attacker gets N times the tries, which
 * argon2's cost per guess still keeps slow; the state is gone on restart. Bounded in size so a
 * flood of made-up emails cannot grow it without limit.
 */
export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly policy: LoginThrottlePolicy = DEFAULT_LOGIN_THROTTLE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until any of `keys` may try again; 0 when none is blocked. */
  retryAfterMs(keys: string[]): number {
    const now = this.now();
    let wait = 0;
    for (const key of keys) {
      const entry = this.live(key, now);
      if (entry && entry.blockedUntil > now) wait = Math.max(wait, entry.blockedUntil - now);
    }
    return wait;
  }

  recordFailure(keys: string[]): void {
    const now = this.now();
    for (const key of keys) {
      const entry = this.live(key, now) ?? { failures: 0, blockedUntil: 0, lastFailure: now };
      entry.failures += 1;
      entry.lastFailure = now;
      const over = entry.failures - this.policy.freeFailures;
      if (over > 0) entry.blockedUntil = now + Math.min(this.policy.maxBlockMs, this.policy.baseBlockMs * 2 ** Math.min(over - 1, 30));
      // Re-inserting keeps the Map in order of last failure, so the oldest is first to go.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    while (this.entries.size > this.policy.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  recordSuccess(keys: string[]): void {
    for (const key of keys) this.entries.delete(key);
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && now - entry.lastFailure > this.policy.forgetAfterMs && entry.blockedUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}

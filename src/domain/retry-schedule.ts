/**
 * When a failed forward is tried again (published in docs/api.md and docs/webhooks.md): after about 5 s, 5 min, 30 min, 2 h,
 * 5 h, 10 h and 10 h, so eight attempts in all over roughly 28 hours; then the delivery is failed.
 * Pure functions, so the schedule is tested without clocks or a database.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait after attempt n fails is entry n-1; past the end there is no further attempt. */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/**
 * ±10 %: merchants coming back from an outage are not hit by every queued retry in the same
 * second, and the waits stay close enough to the published schedule to be predictable.
 */
export const RETRY_JITTER = 0.1;

/**
 * A merchant's Retry-After is a lower bound on the wait, up to this: a day is longer than any step
 * of the schedule, and a misconfigured header (a year, a date in 2099) cannot park a delivery forever.
 */
export const RETRY_AFTER_CAP_MS = 24 * HOUR;

export interface RetryPolicy {
  scheduleMs: readonly number[];
  /** Fraction of each wait added or taken away at random. */
  jitter: number;
  /** Uniform in [0, 1); injectable so tests can pin the jitter to its bounds. */
  random: () => number;
}

export const defaultRetryPolicy = (scheduleMs: readonly number[] = DEFAULT_RETRY_SCHEDULE_MS): RetryPolicy => ({ scheduleMs, jitter: RETRY_JITTER, random: Math.random });

/** The attempts a delivery gets before it is failed: the first one plus one per schedule entry. */
export function maxAttempts(policy: Pick<RetryPolicy, 'scheduleMs'>): number {
  return policy.scheduleMs.length + 1;
}

/**
 * Milliseconds to wait before the next attempt after `attemptsMade` attempts have all failed, or
 * null when none is left. The merchant's Retry-After (already parsed, in ms) raises the wait but
 * never lowers it, and never adds an attempt.
 */
export function nextRetryDelayMs(attemptsMade: number, policy: RetryPolicy, retryAfterMs: number | null = null): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError(`attemptsMade must be a positive integer, got ${attemptsMade}`);
  const base = policy.scheduleMs[attemptsMade - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 + policy.jitter * (2 * policy.random() - 1)));
  const floor = retryAfterMs === null ? 0 : Math.min(Math.max(retryAfterMs, 0), RETRY_AFTER_CAP_MS);
  return Math.max(jittered, floor, 0);
}

/**
 * Retry-After (RFC 9110 10.2.3): delay-seconds or an HTTP date. Returns milliseconds from `now`
 * (0 for a date in the past), or null when absent or unparseable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now: Date = new Date()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return null;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * SECOND, Number.MAX_SAFE_INTEGER);
  // Only the date forms HTTP allows (IMF-fixdate and the two obsolete ones all name a weekday and
  // GMT); Date.parse alone would also take "5" or "2030" as dates.
  if (!/^[A-Za-z]{3,9}, .+ GMT$|^[A-Za-z]{3} [A-Za-z]{3} +\d{1,2} \d{2}:\d{2}:\d{2} \d{4}$/.test(text)) return null;
  const at = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/**
 * `DELIVERY_RETRY_SCHEDULE_MS`: comma-separated waits in ms (for tests and unusual deployments;
 * `200,200` = three quick attempts). Returns the schedule or a problem to report at boot.
 */
export function parseRetrySchedule(raw: string): { scheduleMs: number[] } | { problem: string } {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length === 0 || parts.length > 20 || parts.some((part) => !/^\d{1,10}$/.test(part))) {
    return { problem: `DELIVERY_RETRY_SCHEDULE_MS must be 1 to 20 comma-separated whole numbers of milliseconds, got "${raw}".` };
  }
  return { scheduleMs: parts.map(Number) };
}

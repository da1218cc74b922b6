import {
  DEFAULT_RETRY_SCHEDULE_MS,
  defaultRetryPolicy,
  maxAttempts,
  nextRetryDelayMs,
  parseRetryAfter,
  parseRetrySchedule,
  RETRY_AFTER_CAP_MS,
  RetryPolicy,
} from './retry-schedule';

const pinned = (random: number, scheduleMs = DEFAULT_RETRY_SCHEDULE_MS): RetryPolicy => ({ ...defaultRetryPolicy(scheduleMs), random: () => random });

describe('nextRetryDelayMs', () => {
  it('follows the published schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7].map((n) => nextRetryDelayMs(n, pinned(0.5)));
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(nextRetryDelayMs(8, pinned(0.5))).toBeNull();
    expect(maxAttempts(defaultRetryPolicy())).toBe(8);
  });

  it('keeps the jitter within ±10 % of each step', () => {
    DEFAULT_RETRY_SCHEDULE_MS.forEach((step, i) => {
      expect(nextRetryDelayMs(i + 1, pinned(0))).toBe(Math.round(step * 0.9));
      expect(nextRetryDelayMs(i + 1, pinned(0.999999))).toBeLessThanOrEqual(step * 1.1);
      expect(nextRetryDelayMs(i + 1, pinned(0.999999))).toBeGreaterThan(step * 1.09);
    });
  });

  it('spreads retries with the real random source but never outside the bounds', () => {
    const waits = Array.from({ length: 500 }, () => nextRetryDelayMs(2, defaultRetryPolicy())!);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(270_000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(330_000);
    expect(new Set(waits).size).toBeGreaterThan(100);
  });

  it('waits at least as long as Retry-After asks, up to a day, without adding attempts', () => {
    expect(nextRetryDelayMs(1, pinned(0.5), 60_000)).toBe(60_000);
    expect(nextRetryDelayMs(2, pinned(0.5), 1_000)).toBe(300_000);
    expect(nextRetryDelayMs(1, pinned(0.5), 10 * RETRY_AFTER_CAP_MS)).toBe(RETRY_AFTER_CAP_MS);
    expect(nextRetryDelayMs(8, pinned(0.5), 1_000)).toBeNull();
  });

  it('uses a configured schedule (DELIVERY_RETRY_SCHEDULE_MS)', () => {
    const policy = pinned(0.5, [100, 200]);
    expect([1, 2, 3].map((n) => nextRetryDelayMs(n, policy))).toEqual([100, 200, null]);
    expect(maxAttempts(policy)).toBe(3);
  });

  it('refuses an attempt count that is not a positive integer', () => {
    expect(() => nextRetryDelayMs(0, pinned(0.5))).toThrow(RangeError);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-01-01T12:00:00Z');

  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    ['Thu, 01 Jan 2026 12:05:00 GMT', 300_000],
    ['Thursday, 01-Jan-26 12:00:30 GMT', 30_000],
    ['Thu Jan  1 12:00:10 2026', 10_000],
    ['Wed, 31 Dec 2025 12:00:00 GMT', 0],
  ])('reads %j as %d ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([undefined, '', 'soon', '-5', '1.5', 'Thu, 01 Jan 2026 99:99:99 GMT'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeNull();
  });

  it('takes the first of repeated headers', () => {
    expect(parseRetryAfter(['7', '9'], now)).toBe(7_000);
  });
});

describe('parseRetrySchedule', () => {
  it('reads comma-separated milliseconds', () => {
    expect(parseRetrySchedule('200, 500,1000')).toEqual({ scheduleMs: [200, 500, 1000] });
  });

  it.each(['', 'a,b', '100,,200', '-1', '1.5'])('refuses %j', (raw) => {
    expect(parseRetrySchedule(raw)).toHaveProperty('problem');
  });
});

import { AttemptResult, decideOutcome } from './attempt-outcome';
import { RetryPolicy } from '../domain/retry-schedule';

const policy: RetryPolicy = { scheduleMs: [5_000, 300_000], jitter: 0.1, random: () => 0.5 };
const now = new Date('2026-01-01T12:00:00Z');
const answered = (statusCode: number, extra: Partial<AttemptResult> = {}): AttemptResult => ({ statusCode, error: null, latencyMs: 12, ...extra });

describe('decideOutcome', () => {
  it.each([200, 201, 204, 299])('treats %d as delivered', (code) => {
    expect(decideOutcome(1, answered(code), policy, now)).toEqual({ status: 'delivered', retryInMs: null, error: null });
  });

  it('retries other answers and network failures on the schedule', () => {
    expect(decideOutcome(1, answered(500), policy, now)).toEqual({ status: 'pending', retryInMs: 5_000, error: 'HTTP 500' });
    expect(decideOutcome(2, { statusCode: null, error: 'timeout after 10000 ms', latencyMs: 10_000 }, policy, now)).toEqual({
      status: 'pending',
      retryInMs: 300_000,
      error: 'timeout after 10000 ms',
    });
  });

  it('fails the delivery once the schedule is used up', () => {
    expect(decideOutcome(3, answered(503), policy, now)).toEqual({ status: 'failed', retryInMs: null, error: 'HTTP 503' });
  });

  it('stops at once on 410 Gone, whatever attempts remain', () => {
    expect(decideOutcome(1, answered(410), policy, now)).toMatchObject({ status: 'failed', error: expect.stringContaining('410 Gone') });
  });

  it('counts a redirect as a failure and says it was not followed', () => {
    const outcome = decideOutcome(1, answered(301, { location: 'https://elsewhere.example/hook' }), policy, now);
    expect(outcome).toEqual({ status: 'pending', retryInMs: 5_000, error: 'redirect to https://elsewhere.example/hook not followed: the webhook URL must answer 2xx itself' });
  });

  it('honours Retry-After in seconds and as an HTTP date', () => {
    expect(decideOutcome(1, answered(429, { retryAfter: '90' }), policy, now).retryInMs).toBe(90_000);
    expect(decideOutcome(1, answered(503, { retryAfter: 'Thu, 01 Jan 2026 12:10:00 GMT' }), policy, now).retryInMs).toBe(600_000);
  });
});

import { randomBytes } from 'node:crypto';
import type { HttpResult } from './http';

// What the throttling specs share: the dashboard credentials of testEnv(), client addresses of
// their own, made-up keys, and what a 429 must look like.

export const EMAIL = 'admin@example.com';
export const PASSWORD = 'correct horse battery staple';
export const MISSING_PAYMENT = `/v1/payments/pay_${'x'.repeat(24)}`;

let addressCounter = 0;
/** A client address of its own for each caller, through X-Forwarded-For (the apps trust one proxy hop). */
export function newAddress(): string {
  addressCounter += 1;
  return `203.0.113.${addressCounter}`;
}

export const wrongKey = (): string => `mk_live_${randomBytes(24).toString('hex')}`;

export function asFrom(address: string, headers: Record<string, string> = {}): Record<string, string> {
  return { 'x-forwarded-for': address, ...headers };
}

export function expectRateLimited(res: HttpResult, maxSeconds = 60): void {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

export function count(results: HttpResult[], status: number): number {
  return results.filter((res) => res.status === status).length;
}

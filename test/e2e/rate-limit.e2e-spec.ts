import { MerchantFixture } from '../helpers/factories';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';
import { count, expectRateLimited, MISSING_PAYMENT, wrongKey } from '../helpers/throttling';

/** The per-key rate limit (RATE_LIMIT_PER_SECOND) and the envelope of an unexpected fault, on one app. */
let t: TestApp;
let shop: MerchantFixture;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_SECOND: '3' } });
  shop = await t.newMerchant();
});
afterAll(() => t.close());

describe('rate limit and unexpected faults (HTTP)', () => {
  it('RATE_LIMITED past the per-key limit, with Retry-After', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => http(t.url, 'GET', `/v1/payments/pay_${'x'.repeat(24)}`, { headers: { 'x-merchant-key': shop.apiKey } })));
    const limited = results.filter((res) => res.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('INTERNAL_ERROR (500, no stack) when something unexpected breaks', async () => {
    // A merchant of its own: its key's rate-limit bucket is fresh whatever the test above used.
    const other = await t.newMerchant();
    await t.dataSource.query('ALTER TABLE payments RENAME TO payments_gone');
    try {
      const res = await http(t.url, 'GET', `/v1/payments/pay_${'y'.repeat(24)}`, { headers: { 'x-merchant-key': other.apiKey } });
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred.' } });
      expect(res.text).not.toContain('payments');
    } finally {
      await t.dataSource.query('ALTER TABLE payments_gone RENAME TO payments');
    }
  });
});

describe('per-key rate limit keyed by the resolved key', () => {
  it('puts unknown keys in the client address’s bucket, so made-up keys do not each get a fresh one', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => http(t.url, 'GET', MISSING_PAYMENT, { headers: { 'x-merchant-key': wrongKey() } })));
    expect(count(results, 401)).toBe(3);
    for (const res of results.filter((r) => r.status !== 401)) expectRateLimited(res, 1);
  });
});

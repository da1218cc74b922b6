import { randomBytes } from 'node:crypto';
import { MerchantFixture } from '../helpers/factories';
import { http, HttpResult } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';
import { asFrom, count, EMAIL, expectRateLimited, MISSING_PAYMENT, newAddress, PASSWORD, wrongKey } from '../helpers/throttling';

/**
 * Failed authentication throttled per client address, behind a trusted proxy, and sign-in back-off
 * per account. The same without TRUST_PROXY, through Redis, and in the logs: the other
 * auth-throttling-* specs; the per-key rate limit: rate-limit.e2e-spec.ts.
 */

jest.setTimeout(60_000);

describe('failed authentication throttled per client address (TRUST_PROXY=1)', () => {
  let t: TestApp;
  let shop: MerchantFixture;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
    shop = await t.newMerchant();
  });
  afterAll(() => t.close());

  it('counts parallel wrong keys one by one: of 30 at once, 10 are 401 and the rest 429 with Retry-After; then even the right key is refused', async () => {
    const address = newAddress();
    const results = await Promise.all(Array.from({ length: 30 }, () => http(t.url, 'GET', MISSING_PAYMENT, { headers: asFrom(address, { 'x-merchant-key': wrongKey() }) })));
    expect(count(results, 401)).toBe(10);
    expect(count(results, 429)).toBe(20);
    for (const res of results.filter((r) => r.status === 429)) expectRateLimited(res);

    expectRateLimited(await http(t.url, 'GET', MISSING_PAYMENT, { headers: asFrom(address, { 'x-merchant-key': shop.apiKey }) }));
    expectRateLimited(await http(t.url, 'GET', '/admin/api/payments', { headers: asFrom(address, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }) }));
    // Another address is not affected.
    expect((await http(t.url, 'GET', MISSING_PAYMENT, { headers: asFrom(newAddress(), { 'x-merchant-key': shop.apiKey }) })).status).toBe(404);
  });

  it('counts wrong merchant keys, admin tokens, metrics tokens and failed sign-ins together', async () => {
    const address = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await http(t.url, 'GET', MISSING_PAYMENT, { headers: asFrom(address, { 'x-merchant-key': wrongKey() }) })).status);
    for (let i = 0; i < 3; i++) statuses.push((await http(t.url, 'GET', '/admin/api/payments', { headers: asFrom(address, { authorization: `Bearer wrong-token-${i}` }) })).status);
    for (let i = 0; i < 2; i++) {
      statuses.push((await http(t.url, 'POST', '/admin/api/session', { headers: asFrom(address), body: { email: `nobody-${i}@example.com`, password: 'nope' } })).status);
    }
    statuses.push((await http(t.url, 'GET', '/metrics', { headers: asFrom(address, { authorization: 'Bearer wrong-metrics-token' }) })).status);
    expect(statuses).toEqual(Array(10).fill(401));
    expectRateLimited(await http(t.url, 'GET', '/admin/api/payments', { headers: asFrom(address, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }) }));
    expectRateLimited(await http(t.url, 'GET', '/metrics', { headers: asFrom(address, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }) }));
    expectRateLimited(await http(t.url, 'POST', '/admin/api/session', { headers: asFrom(address), body: { email: EMAIL, password: PASSWORD } }));
  });

  it('does not count a missing credential as a failure', async () => {
    const address = newAddress();
    for (let i = 0; i < 15; i++) {
      expect((await http(t.url, 'GET', MISSING_PAYMENT, { headers: asFrom(address) })).body.error.code).toBe('MISSING_MERCHANT_KEY');
      expect((await http(t.url, 'GET', '/admin/api/payments', { headers: asFrom(address) })).status).toBe(401);
    }
    expect((await http(t.url, 'GET', MISSING_PAYMENT, { headers: asFrom(address, { 'x-merchant-key': shop.apiKey }) })).status).toBe(404);
  });

  it('backs an account off after 10 failures from many addresses, Retry-After growing, and the right password works after the wait', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await http(t.url, 'POST', '/admin/api/session', { headers: asFrom(newAddress()), body: { email: EMAIL, password: `guess-${i}` } });
      expect(res.status).toBe(401);
    }
    // An address that never failed, with the right password: the account is backing off.
    const first = await http(t.url, 'POST', '/admin/api/session', { headers: asFrom(newAddress()), body: { email: EMAIL, password: PASSWORD } });
    expectRateLimited(first, 2);
    expect(first.body.error.message).toMatch(/Too many failed sign-ins to this account\. Try again in \d+ seconds?\./);

    // Once the back-off has passed, one more failure doubles it.
    const again = await waitForLoginStatus({ email: EMAIL, password: 'guess-again' }, 401);
    expect(again.status).toBe(401);
    const second = await http(t.url, 'POST', '/admin/api/session', { headers: asFrom(newAddress()), body: { email: EMAIL, password: PASSWORD } });
    expectRateLimited(second, 4);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(2);

    // The real operator is slowed down, never locked out.
    const signedIn = await waitForLoginStatus({ email: EMAIL, password: PASSWORD }, 201);
    expect(signedIn.status).toBe(201);
    // And the success cleared the account's failures.
    expect((await http(t.url, 'POST', '/admin/api/session', { headers: asFrom(newAddress()), body: { email: EMAIL, password: 'one-more' } })).status).toBe(401);
    expect((await http(t.url, 'POST', '/admin/api/session', { headers: asFrom(newAddress()), body: { email: EMAIL, password: PASSWORD } })).status).toBe(201);
  });

  it('counts parallel sign-ins to one account one by one: of 30 wrong passwords from 30 addresses, at most 11 are checked', async () => {
    const account = `target-${randomBytes(4).toString('hex')}@example.com`;
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => http(t.url, 'POST', '/admin/api/session', { headers: asFrom(newAddress()), body: { email: account, password: `p-${i}` } })),
    );
    expect(count(results, 401)).toBeGreaterThanOrEqual(10);
    expect(count(results, 401)).toBeLessThanOrEqual(11);
    expect(count(results, 429)).toBe(30 - count(results, 401));
  });

  /** Tries to sign in from fresh addresses until the answer is `status` (a refused try is not a failure). */
  async function waitForLoginStatus(body: { email: string; password: string }, status: number): Promise<HttpResult> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await http(t.url, 'POST', '/admin/api/session', { headers: asFrom(newAddress()), body });
      if (res.status === status) return res;
      expectRateLimited(res);
      if (Date.now() > deadline) throw new Error(`still ${res.status} after 10 s: ${res.text}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});

import { randomBytes } from 'node:crypto';
import { newMerchant, MerchantFixture } from '../helpers/factories';
import { startGatewayProcess } from '../helpers/gateway-process';
import { http, HttpResult } from '../helpers/http';
import { createTestPostgresDatabase, describeOn, startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

/**
 * Failed authentication throttled per client address, sign-in back-off per account, the per-key rate
 * limit keyed by the resolved key, and all of them shared through Redis with REDIS_URL.
 */
jest.setTimeout(60_000);

const EMAIL = 'admin@example.com';
const PASSWORD = 'correct horse battery staple';
const MISSING_PAYMENT = `/v1/payments/pay_${'x'.repeat(24)}`;

let addressCounter = 0;
/** A client address of its own for each caller, through X-Forwarded-For (the apps trust one proxy hop). */
function newAddress(): string {
  addressCounter += 1;
  return `203.0.113.${addressCounter}`;
}

const wrongKey = (): string => `mk_live_${randomBytes(24).toString('hex')}`;

function asFrom(address: string, headers: Record<string, string> = {}): Record<string, string> {
  return { 'x-forwarded-for': address, ...headers };
}

function expectRateLimited(res: HttpResult, maxSeconds = 60): void {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
}

function count(results: HttpResult[], status: number): number {
  return results.filter((res) => res.status === status).length;
}

describe('failed authentication throttled per client address (TRUST_PROXY=1)', () => {
  let t: TestApp;
  let shop: MerchantFixture;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
    shop = await newMerchant(t);
  });
  afterAll(() => t.close());

  it('counts parallel wrong keys one by one: of 30 at once, 10 are 401 and the rest 429 with Retry-After; then even the right key is refused', async () => {
    const address = newAddress();
    const results = await Promise.all(
      Array.from({ length: 30 }, () => http(t.url, 'GET', MISSING_PAYMENT, { headers: asFrom(address, { 'x-merchant-key': wrongKey() }) })),
    );
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

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For: the connection address is throttled whatever the header says', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await http(t.url, 'GET', MISSING_PAYMENT, { headers: asFrom(newAddress(), { 'x-merchant-key': wrongKey() }) })).status).toBe(401);
    }
    expectRateLimited(await http(t.url, 'GET', '/admin/api/payments', { headers: asFrom(newAddress(), { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }) }));
  });
});

describe('per-key rate limit keyed by the resolved key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_SECOND: '3' } });
  });
  afterAll(() => t.close());

  it('puts unknown keys in the client address’s bucket, so made-up keys do not each get a fresh one', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => http(t.url, 'GET', MISSING_PAYMENT, { headers: { 'x-merchant-key': wrongKey() } })));
    expect(count(results, 401)).toBe(3);
    for (const res of results.filter((r) => r.status !== 401)) expectRateLimited(res, 1);
  });
});

describe('failed authentication in the logs', () => {
  it('logs each failure at warn with address, credential kind and route, never the presented secret', async () => {
    const gw = await startGatewayProcess({ LOG_LEVEL: 'info' });
    try {
      const key = wrongKey();
      const token = `wrong-admin-token-${randomBytes(8).toString('hex')}`;
      const password = `wrong-password-${randomBytes(8).toString('hex')}`;
      expect((await http(gw.url, 'GET', MISSING_PAYMENT, { headers: { 'x-merchant-key': key } })).status).toBe(401);
      expect((await http(gw.url, 'GET', '/admin/api/payments', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      expect((await http(gw.url, 'POST', '/admin/api/session', { body: { email: EMAIL, password } })).status).toBe(401);
      const deadline = Date.now() + 5_000;
      const failures = (): Record<string, unknown>[] =>
        gw
          .output()
          .split('\n')
          .filter((line) => line.includes('Authentication failed'))
          .map((line) => JSON.parse(line));
      while (failures().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(failures()).toEqual([
        expect.objectContaining({ level: 40, ip: '127.0.0.1', credential: 'merchant_key', method: 'GET', route: '/v1/payments/:id' }),
        expect.objectContaining({ level: 40, ip: '127.0.0.1', credential: 'admin_token', method: 'GET', route: '/admin/api/payments' }),
        expect.objectContaining({ level: 40, ip: '127.0.0.1', credential: 'dashboard_login', method: 'POST', route: '/admin/api/session' }),
      ]);
      for (const secret of [key, token, password]) expect(gw.output()).not.toContain(secret);
    } finally {
      gw.kill('SIGKILL');
      await gw.exited;
    }
  });
});

const REDIS_URL = process.env.TEST_REDIS_URL;
const describeWithRedis = REDIS_URL ? describeOn('postgres', 'two processes share one database') : describe.skip;
if (!REDIS_URL) {
  // eslint-disable-next-line no-console
  console.warn('Skipping the REDIS_URL tests: they need TEST_REDIS_URL (a Redis).');
}

describeWithRedis('with REDIS_URL, two gateway processes share the counts', () => {
  let a: TestApp;
  let b: TestApp;
  let db: { url: string; drop: () => Promise<void> };
  let shop: MerchantFixture;
  beforeAll(async () => {
    db = await createTestPostgresDatabase();
    // The same unique prefix for both: two processes of one deployment; other runs use other prefixes.
    const throttleKeyPrefix = `test:${randomBytes(6).toString('hex')}:`;
    const env = { DATABASE_URL: db.url, REDIS_URL, RATE_LIMIT_PER_SECOND: '3' };
    a = await startTestApp({ env, throttleKeyPrefix });
    b = await startTestApp({ env, throttleKeyPrefix });
    shop = await newMerchant(a);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it('holds the per-key rate limit across both', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => http(i % 2 ? a.url : b.url, 'GET', MISSING_PAYMENT, { headers: { 'x-merchant-key': shop.apiKey } })),
    );
    expect(count(results, 404)).toBe(3);
    expect(count(results, 429)).toBe(5);
  });

  it('counts failed authentication from one address across both', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await http(i % 2 ? a.url : b.url, 'GET', '/admin/api/payments', { headers: { authorization: `Bearer wrong-${i}` } });
      expect(res.status).toBe(401);
    }
    expectRateLimited(await http(a.url, 'GET', '/admin/api/payments', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }));
    expectRateLimited(await http(b.url, 'GET', MISSING_PAYMENT, { headers: { 'x-merchant-key': shop.apiKey } }));
  });
});

describe('with REDIS_URL unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
  });
  afterAll(() => t.close());

  it('keeps authenticating and throttling in this process', async () => {
    expect((await http(t.url, 'GET', '/admin/api/payments', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await http(t.url, 'GET', '/admin/api/payments', { headers: { authorization: `Bearer wrong-${i}` } })).status).toBe(401);
    expectRateLimited(await http(t.url, 'GET', '/admin/api/payments', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }));
  });
});

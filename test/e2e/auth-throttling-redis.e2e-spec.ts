import { randomBytes } from 'node:crypto';
import { MerchantFixture } from '../helpers/factories';
import { http } from '../helpers/http';
import { createTestPostgresDatabase, describeOn, startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';
import { count, expectRateLimited, MISSING_PAYMENT } from '../helpers/throttling';

/** Rate limits and failed-authentication throttling shared by two processes through Redis (REDIS_URL). */
const REDIS_URL = process.env.TEST_REDIS_URL;
const describeWithRedis = REDIS_URL ? describeOn('postgres', 'two processes share one database') : describe.skip;
if (!REDIS_URL) {
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
    shop = await a.newMerchant();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  it('holds the per-key rate limit across both', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => http(i % 2 ? a.url : b.url, 'GET', MISSING_PAYMENT, { headers: { 'x-merchant-key': shop.apiKey } })));
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

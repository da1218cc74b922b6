import { http } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';
import { asFrom, expectRateLimited, MISSING_PAYMENT, newAddress, wrongKey } from '../helpers/throttling';

/** Failed authentication throttled per connection address when no proxy is trusted. */
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

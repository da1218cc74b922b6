import { http } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';
import { expectRateLimited } from '../helpers/throttling';

/** With Redis unreachable, each process keeps throttling on its own. */
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

import { randomBytes } from 'node:crypto';
import { http } from '../helpers/http';
import { createTestPostgresDatabase, describeOn, productionEnv, sandboxAuth, startTestApp, TEST_PRODUCTION_ADMIN_TOKEN, type TestApp } from '../helpers/test-app';

const SECRET = 'sandbox-webhook-secret-for-access-tests';

/** The sandbox's 401: its own error shape, JSON, saying what is missing. */
const UNAUTHORIZED_BODY = { error: { code: 'UNAUTHORIZED', message: expect.stringMatching(/credentials.*sandbox API token.*admin token.*dashboard session/) } };

/** The simulated PSP enabled in production: the same access rules as elsewhere, and signed events only. */
describeOn('postgres', 'production refuses the embedded database')('sandbox PSP in production with SANDBOX_ENABLED=true and SANDBOX_WEBHOOK_SECRET', () => {
  let t: TestApp;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await createTestPostgresDatabase();
    drop = db.drop;
    t = await startTestApp({ env: productionEnv(db.url, { SANDBOX_ENABLED: 'true', SANDBOX_WEBHOOK_SECRET: SECRET }) });
  });
  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it('requires credentials on /sandbox/* there too', async () => {
    const res = await http(t.url, 'GET', '/sandbox/_control/charges');
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: UNAUTHORIZED_BODY });
    expect((await http(t.url, 'GET', '/sandbox/_control/charges', { headers: { authorization: `Bearer ${TEST_PRODUCTION_ADMIN_TOKEN}` } })).status).toBe(200);
    expect((await http(t.url, 'GET', '/sandbox/_control/charges', { headers: sandboxAuth(t.config) })).status).toBe(200);
  });

  it('refuses an unsigned or badly signed event with 401 and changes nothing', async () => {
    const shop = await t.newMerchant({ webhookUrl: 'https://merchant.example.com/hook' });
    const payment = await t.newPayment(shop.merchant.id);
    const event = { event: 'payment.confirmed', id: `evt_${randomBytes(6).toString('hex')}`, data: { id: payment.id, amount: 10.5 } };
    for (const headers of [{}, { 'x-sandbox-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` }] as Record<string, string>[]) {
      const res = await http(t.url, 'POST', '/webhooks/sandbox', { body: event, headers });
      expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 401, code: 'INVALID_SIGNATURE' });
    }
    expect((await t.dataSource.query(`SELECT status FROM payments WHERE id = $1`, [payment.id]))[0].status).toBe('pending');
    expect(await t.dataSource.query(`SELECT id FROM payment_events WHERE payment_id = $1`, [payment.id])).toEqual([]);
    expect(await t.dataSource.query(`SELECT id FROM webhook_deliveries WHERE payment_id = $1`, [payment.id])).toEqual([]);
  });
});

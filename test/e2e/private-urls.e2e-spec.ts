import { attemptsOf, confirmPayment, DELIVERY_ENV, settled } from '../helpers/deliveries';
import { sandboxChargeBody } from '../helpers/factories';
import { http, HttpResult } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

/**
 * WEBHOOK_ALLOW_PRIVATE_URLS=false (the production setting) wherever the gateway would post to a
 * URL someone gave it: merchants' webhook URLs when saved and when delivered to, and the sandbox
 * PSP's notification URLs. One app for all of them (with the fast delivery settings).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { ...DELIVERY_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
});
afterAll(() => t.close());

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
describe('admin API: webhook URL policy with private URLs refused (production setting)', () => {
  const admin = (method: string, path: string, body?: unknown): Promise<HttpResult> =>
    http(t.url, method, `/admin/api${path}`, { body, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });

  it.each([
    ['http://93.184.216.34/hooks', 'webhook_url must use https'],
    ['https://127.0.0.1/hooks', 'webhook_url must point to a public address (127.0.0.1 is loopback)'],
    ['https://10.1.2.3/hooks', 'webhook_url must point to a public address (10.1.2.3 is private)'],
    ['https://100.64.0.1/hooks', 'webhook_url must point to a public address (100.64.0.1 is carrierGradeNat)'],
    ['https://169.254.169.254/latest/meta-data/', 'webhook_url must point to a public address (169.254.169.254 is linkLocal)'],
    ['https://[::1]/hooks', 'webhook_url must point to a public address (::1 is loopback)'],
    ['https://[fd00::1]/hooks', 'webhook_url must point to a public address (fd00::1 is uniqueLocal)'],
    ['https://[::ffff:192.168.0.1]/hooks', 'webhook_url must point to a public address (::ffff:c0a8:1 is ipv4Mapped:private)'],
    ['https://2130706433/hooks', 'webhook_url must point to a public address (127.0.0.1 is loopback)'],
    ['https://localhost/hooks', 'webhook_url must point to a public address ("localhost" resolves to'],
  ])('refuses %s on create and on update', async (url, message) => {
    const created = await admin('POST', '/merchants', { name: 'Prod', webhook_url: url });
    expect(created.status).toBe(400);
    expect(created.body.error.details.fields).toHaveLength(1);
    expect(created.body.error.details.fields[0].field).toBe('webhook_url');
    expect(created.body.error.details.fields[0].message.startsWith(message)).toBe(true);

    const merchant = (await admin('POST', '/merchants', { name: 'Prod' })).body.data;
    const updated = await admin('PATCH', `/merchants/${merchant.id}`, { webhook_url: url });
    expect(updated.status).toBe(400);
    expect(updated.body.error.details.fields[0].field).toBe('webhook_url');
    expect((await admin('GET', `/merchants/${merchant.id}`)).body.data.webhook_url).toBeNull();
  });

  it('accepts https to a public address, stored in canonical form', async () => {
    const res = await admin('POST', '/merchants', { name: 'Prod', webhook_url: 'HTTPS://93.184.216.34:8443/hooks/pix?src=gw' });
    expect(res.status).toBe(201);
    expect(res.body.data.webhook_url).toBe('https://93.184.216.34:8443/hooks/pix?src=gw');
  });
});

describe('sandbox PSP notification URLs with WEBHOOK_ALLOW_PRIVATE_URLS=false', () => {
  it('refuses charges that would make the gateway post to private, loopback or metadata addresses', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'https://169.254.169.254/latest/meta-data/',
      `https://127.0.0.1:${t.config.port}/admin/api/merchants`,
      'https://10.1.2.3/hook',
      'https://[::1]/hook',
    ]) {
      const body = sandboxChargeBody({ notificationUrl: url });
      const res = await http(t.url, 'POST', '/sandbox/charges', { body, headers: { ...ADMIN, 'idempotency-key': body.txid } });
      expect({ url, status: res.status, body: res.body }).toEqual({
        url,
        status: 400,
        body: { error: expect.objectContaining({ code: 'INVALID_REQUEST', field: 'notificationUrl' }) },
      });
    }
    expect((await http(t.url, 'GET', '/sandbox/_control/charges', { headers: ADMIN })).body).toEqual([]);
  });
});

describe('webhook delivery with WEBHOOK_ALLOW_PRIVATE_URLS=false', () => {
  // The URLs are written straight to the database, as if they had passed the save-time check and
  // their host had been re-pointed since (DNS rebinding): the delivery-time check must catch them.
  it.each([
    ['a host name that now resolves to loopback', 'https://localhost/pix-hook', '"localhost" resolves to'],
    ['a loopback address', 'https://127.0.0.1/pix-hook', '127.0.0.1 is loopback'],
    ['the cloud metadata address', 'https://169.254.169.254/latest', '169.254.169.254 is linkLocal'],
  ])('refuses %s before connecting, and keeps retrying on schedule', async (_label, url, reason) => {
    const shop = await t.newMerchant({ webhookUrl: url });
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'failed', 4);
    const attempts = await attemptsOf(t, delivery!.id);
    expect(attempts).toHaveLength(4);
    for (const attempt of attempts) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toContain('webhook URL refused');
      expect(attempt.error).toContain(reason);
    }
  });
});

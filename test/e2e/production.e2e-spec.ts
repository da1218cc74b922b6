import { randomBytes } from 'node:crypto';
import { http } from '../helpers/http';
import { describeOn, sandboxSettings, startProductionTestApp, TEST_PRODUCTION_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

/** The gateway under NODE_ENV=production with the production defaults (startProductionTestApp), one app for the file. */
const ONLY_POSTGRES = 'production refuses the embedded database';
const chargeBody = (notificationUrl: string) => ({
  txid: randomBytes(16).toString('hex'),
  amount: '10.50',
  currency: 'BRL',
  description: null,
  externalId: 'order-1',
  recipient: { document: '98765432100', name: 'Beatriz Payer' },
  expiresIn: 3600,
  notificationUrl,
});

let gw: TestApp;
beforeAll(async () => {
  gw = await startProductionTestApp();
});
afterAll(() => gw?.close());

/** In production merchant webhooks are always signed: a secret is generated when none is given, and null is refused. */
describeOn('postgres', ONLY_POSTGRES)('merchant signing secrets under NODE_ENV=production', () => {
  const getMerchant = (id: string) => gw.admin.GET('/admin/api/merchants/{id}', { params: { path: { id } } });

  it('generates a signing secret for a merchant created without one, and returns it once', async () => {
    const created = await gw.admin.POST('/admin/api/merchants', { body: { name: 'Loja' } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ has_webhook_signing_secret: true, webhook_signing_secret: expect.stringMatching(/^whsec_/) });
    const read = await getMerchant(created.data!.id);
    expect(read.data).toMatchObject({ has_webhook_signing_secret: true });
    expect(read.data).not.toHaveProperty('webhook_signing_secret');
  });

  it('refuses null on create and on update, naming the field, and changes nothing', async () => {
    const refused = await gw.admin.POST('/admin/api/merchants', { body: { name: 'Sem segredo', webhook_signing_secret: null } });
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'webhook_signing_secret' })] } });
    const list = await gw.admin.GET('/admin/api/merchants', { params: { query: { limit: 100 } } });
    expect(list.data!.items.map((m) => m.name)).not.toContain('Sem segredo');

    const created = await gw.admin.POST('/admin/api/merchants', { body: { name: 'Loja 2', webhook_signing_secret: 'generate' } });
    const id = created.data!.id;
    const patched = await gw.admin.PATCH('/admin/api/merchants/{id}', { params: { path: { id } }, body: { webhook_signing_secret: null } });
    expect(patched.status).toBe(400);
    expect(patched.error?.code).toBe('VALIDATION_ERROR');
    expect((await getMerchant(id)).data!.has_webhook_signing_secret).toBe(true);
  });
});

/** The simulated PSP is not served in production unless SANDBOX_ENABLED says so (see sandbox-production.e2e-spec.ts). */
describeOn('postgres', ONLY_POSTGRES)('sandbox PSP in production by default (SANDBOX_ENABLED unset)', () => {
  it('serves neither /sandbox/* nor /webhooks/sandbox: 404 in the envelope, whatever the credentials', async () => {
    expect(sandboxSettings(gw.config).enabled).toBe(false);
    const auth = { authorization: `Bearer ${TEST_PRODUCTION_ADMIN_TOKEN}` };
    for (const [method, path, body] of [
      ['GET', '/sandbox/health', undefined],
      ['GET', '/sandbox/_control/charges', undefined],
      ['POST', '/sandbox/charges', chargeBody('https://pix.example.com/webhooks/sandbox')],
      ['POST', '/sandbox/charges/sbx_1/simulate', { event: 'payment.confirmed' }],
      ['POST', '/webhooks/sandbox', { event: 'payment.confirmed', id: 'evt_1', data: { id: 'pay_1', amount: 10.5 } }],
    ] as const) {
      for (const headers of [{}, auth]) {
        const res = await http(gw.url, method, path, { body, headers });
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 404,
          body: expect.objectContaining({ success: false, error: expect.objectContaining({ code: 'NOT_FOUND' }) }),
        });
      }
    }
  });
});

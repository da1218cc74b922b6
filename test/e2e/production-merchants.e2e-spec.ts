import { http } from '../helpers/http';
import { describeOn, startProductionTestApp, TEST_PRODUCTION_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

/** In production merchant webhooks are always signed: a secret is generated when none is given, and null is refused. */
const ADMIN = { authorization: `Bearer ${TEST_PRODUCTION_ADMIN_TOKEN}` };

describeOn('postgres', 'production refuses the embedded database')('merchant signing secrets under NODE_ENV=production', () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startProductionTestApp();
  });
  afterAll(() => gw.close());

  it('generates a signing secret for a merchant created without one, and returns it once', async () => {
    const created = await http(gw.url, 'POST', '/admin/api/merchants', { body: { name: 'Loja' }, headers: ADMIN });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ has_webhook_signing_secret: true, webhook_signing_secret: expect.stringMatching(/^whsec_/) });
    const read = await http(gw.url, 'GET', `/admin/api/merchants/${created.body.data.id}`, { headers: ADMIN });
    expect(read.body.data).toMatchObject({ has_webhook_signing_secret: true });
    expect(read.body.data.webhook_signing_secret).toBeUndefined();
  });

  it('refuses null on create and on update, naming the field, and changes nothing', async () => {
    const refused = await http(gw.url, 'POST', '/admin/api/merchants', { body: { name: 'Sem segredo', webhook_signing_secret: null }, headers: ADMIN });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'webhook_signing_secret' })] } });
    const list = await http(gw.url, 'GET', '/admin/api/merchants?limit=100', { headers: ADMIN });
    expect(list.body.data.items.map((m: { name: string }) => m.name)).not.toContain('Sem segredo');

    const created = await http(gw.url, 'POST', '/admin/api/merchants', { body: { name: 'Loja 2', webhook_signing_secret: 'generate' }, headers: ADMIN });
    const patched = await http(gw.url, 'PATCH', `/admin/api/merchants/${created.body.data.id}`, { body: { webhook_signing_secret: null }, headers: ADMIN });
    expect(patched.status).toBe(400);
    expect(patched.body.error.code).toBe('VALIDATION_ERROR');
    const read = await http(gw.url, 'GET', `/admin/api/merchants/${created.body.data.id}`, { headers: ADMIN });
    expect(read.body.data.has_webhook_signing_secret).toBe(true);
  });
});

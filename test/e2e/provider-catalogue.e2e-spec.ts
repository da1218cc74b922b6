import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

describe('provider catalogue (GET /admin/api/providers)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('needs the admin token, like every admin route', async () => {
    const res = await http(t.url, 'GET', '/admin/api/providers');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
  });

  it('lists every provider the gateway runs, each as its adapter describes itself, in the envelope', async () => {
    const res = await t.admin.GET('/admin/api/providers');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, request_id: expect.any(String) });
    const providers = res.data!;
    expect(providers.map((p) => p.name)).toEqual(['pix-api', 'efi', 'sicoob', 'bb', 'itau', 'inter', 'santander', 'sicredi', 'mercadopago', 'sandbox']);

    const bb = providers.find((p) => p.name === 'bb')!;
    expect(bb).toMatchObject({
      label: 'Banco do Brasil',
      environments: [
        { name: 'sandbox', base_url: 'https://api-pix.hm.bb.com.br/pix/v2', token_url: 'https://oauth.hm.bb.com.br/oauth/token' },
        { name: 'production', base_url: 'https://api-pix.bb.com.br/pix/v2', token_url: 'https://oauth.bb.com.br/oauth/token' },
      ],
      capabilities: { refund: true, partial_refund: true, cancel: true, register_webhook: true, txid: 'gateway' },
      built_in: false,
      one_of: [
        {
          name: 'certificate',
          options: [
            { name: 'pem', fields: ['certificate_pem', 'private_key_pem'] },
            { name: 'pkcs12', fields: ['pkcs12_base64', 'pkcs12_password'] },
          ],
        },
      ],
    });
    expect(bb.credentials).toContainEqual({ name: 'app_key', label: 'Application key', kind: 'text', required: true, pem: null, help: expect.any(String) });
    expect(bb.credentials).toContainEqual(expect.objectContaining({ name: 'pkcs12_base64', kind: 'pkcs12' }));
    expect(bb.settings).toContainEqual(expect.objectContaining({ name: 'pix_key', required_in: ['sandbox', 'production'] }));

    const pixApi = providers.find((p) => p.name === 'pix-api')!;
    expect(pixApi.environments.every((e) => e.base_url === null && e.token_url === null)).toBe(true);
    expect(pixApi.settings).toContainEqual(expect.objectContaining({ name: 'base_url', required_in: ['sandbox', 'production'] }));

    const sicoob = providers.find((p) => p.name === 'sicoob')!;
    expect(sicoob.credentials.map((f) => f.name)).not.toContain('client_secret');

    const mercadopago = providers.find((p) => p.name === 'mercadopago')!;
    expect(mercadopago).toMatchObject({
      label: 'Mercado Pago',
      environments: [
        { name: 'sandbox', base_url: 'https://api.mercadopago.com', token_url: null },
        { name: 'production', base_url: 'https://api.mercadopago.com', token_url: null },
      ],
      capabilities: { cancel: true, register_webhook: false, txid: 'provider' },
      built_in: false,
      one_of: [],
    });
    expect(mercadopago.credentials.filter((f) => f.required).map((f) => [f.name, f.kind])).toEqual([
      ['access_token', 'secret'],
      ['webhook_secret', 'secret'],
    ]);
    expect(mercadopago.settings.map((setting) => setting.name)).toEqual(['base_url']);

    const sandbox = providers.find((p) => p.name === 'sandbox')!;
    expect(sandbox).toMatchObject({ environments: [{ name: 'sandbox', base_url: `${t.url}/sandbox`, token_url: null }], one_of: [], built_in: true });
    expect(sandbox.credentials).toEqual([expect.objectContaining({ name: 'webhook_secret', kind: 'secret', required: false })]);
  });

  it('is documented in the OpenAPI document, with examples', async () => {
    const doc = (await http(t.url, 'GET', '/docs/json')).body;
    expect(doc.paths['/admin/api/providers'].get.responses['200']).toBeDefined();
    expect(doc.components.schemas.ProviderDescriptorView.properties.name.example).toBe('bb');
    expect(doc.components.schemas.CredentialFieldView.properties.kind.enum).toEqual(['text', 'secret', 'pem', 'pkcs12', 'boolean']);
  });
});

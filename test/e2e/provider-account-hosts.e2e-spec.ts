import { testPki } from '../../src/testing/certificates';
import { http } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

const pki = testPki();
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/**
 * With WEBHOOK_ALLOW_PRIVATE_URLS=false (production's default) a provider account's hosts follow the
 * merchant webhook rules: public addresses only. (With private URLs allowed, and the metadata
 * addresses refused whatever the setting: provider-accounts.e2e-spec.ts.) IP literals only, so
 * nothing here needs DNS; nothing is ever connected to.
 */
describe('provider account hosts with private URLs refused', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
  });
  afterAll(() => t.close());

  const call = (method: string, path: string, body?: unknown) => http(t.url, method, `/admin/api${path}`, { body, headers: admin });
  const credentials = { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: pki.client.cert, private_key_pem: pki.client.key };
  const account = (overrides: Record<string, unknown> = {}) => ({
    name: 'Banco Público',
    provider: 'pix-api',
    base_url: 'https://203.0.114.10/api/v2',
    token_url: 'https://203.0.114.10/oauth/token',
    pix_key: 'recebedor@example.com',
    credentials,
    ...overrides,
  });
  const fields = (res: { body: { error: { details: { fields: { field: string }[] } } } }) => res.body.error.details.fields.map((f) => f.field);

  it('accepts public hosts', async () => {
    const res = await call('POST', '/provider-accounts', account({ base_url: 'https://8.8.8.8/api/v2', token_url: 'https://[2001:4860:4860::8888]/oauth/token' }));
    expect(res.status).toBe(201);
  });

  it.each([
    ['loopback', 'https://127.0.0.1:8443/'],
    ['IPv6 loopback', 'https://[::1]/'],
    ['a private address', 'https://10.1.2.3/'],
    ['another private range', 'https://192.168.0.10/'],
    ['a link-local address', 'https://169.254.10.1/'],
    ['the cloud metadata address', 'https://169.254.169.254/'],
    ['user information on a public host', 'https://user:pass@8.8.8.8/'],
  ])('refuses %s as base_url or token_url: 400 naming the field on create and PATCH, nothing stored or changed', async (_case, url) => {
    const created = (await call('POST', '/provider-accounts', account())).body.data;
    const before = (await t.dataSource.query('SELECT count(*)::int AS n FROM provider_accounts'))[0].n;
    for (const field of ['base_url', 'token_url']) {
      const res = await call('POST', '/provider-accounts', account({ [field]: url }));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fields(res)).toEqual([field]);
      const patched = await call('PATCH', `/provider-accounts/${created.id}`, { [field]: url, credentials });
      expect(patched.status).toBe(400);
      expect(fields(patched)).toEqual([field]);
    }
    expect((await t.dataSource.query('SELECT count(*)::int AS n FROM provider_accounts'))[0].n).toBe(before);
    expect((await call('GET', `/provider-accounts/${created.id}`)).body.data).toEqual(created);
  });
});

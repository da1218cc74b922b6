import { testPki } from '../fakes/certificates';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { http } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

const pki = testPki();
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe('provider accounts (admin API)', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  beforeAll(async () => {
    [t, psp] = await Promise.all([startTestApp(), startPixApiPsp()]);
  });
  afterAll(async () => {
    await Promise.all([t.close(), psp.close()]);
  });
  afterEach(() => psp.assertNoViolations());

  const call = (method: string, path: string, body?: unknown) => http(t.url, method, `/admin/api${path}`, { body, headers: admin });
  const pemCredentials = (overrides: Record<string, unknown> = {}) => ({
    client_id: psp.clientId,
    client_secret: psp.clientSecret,
    certificate_pem: pki.client.cert,
    private_key_pem: pki.client.key,
    ca_pem: psp.caPem,
    ...overrides,
  });
  const account = (overrides: Record<string, unknown> = {}) => ({
    name: 'Banco Teste',
    provider: 'pix-api',
    base_url: psp.url,
    token_url: psp.tokenUrl,
    pix_key: 'recebedor@example.com',
    credentials: pemCredentials(),
    ...overrides,
  });
  const count = async () => Number((await t.dataSource.query('SELECT count(*) AS n FROM provider_accounts'))[0].n);

  it('creates an account from a PEM pair: the summary, never the credentials, and the webhook URL the PSP must post to', async () => {
    const res = await call('POST', '/provider-accounts', account());
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toMatchObject({ provider: 'pix-api', environment: 'sandbox', active: true, pix_key: 'recebedor@example.com' });
    expect(created.webhook_url).toBe(`${t.config.publicBaseUrl}/webhooks/pix-api/${created.id}`);
    expect(created.credentials_summary).toEqual({ client_id: psp.clientId, certificate_subject: expect.any(String), certificate_expires_at: expect.any(String) });
    expect(res.text).not.toContain(psp.clientSecret);
    expect(res.text).not.toContain('PRIVATE KEY');
    const stored = (await t.dataSource.query('SELECT credentials_enc FROM provider_accounts WHERE id = $1', [created.id]))[0].credentials_enc;
    expect(stored).not.toContain(psp.clientSecret);
    expect((await call('GET', `/provider-accounts/${created.id}`)).body.data).toEqual(created);
    expect((await call('GET', '/provider-accounts')).body.data.map((a: { id: string }) => a.id)).toContain(created.id);
  });

  it('creates an account from a PKCS#12 bundle', async () => {
    const credentials = {
      client_id: psp.clientId,
      client_secret: psp.clientSecret,
      pkcs12_base64: pki.clientP12.base64,
      pkcs12_password: pki.clientP12.password,
      ca_pem: psp.caPem,
    };
    const res = await call('POST', '/provider-accounts', account({ credentials }));
    expect(res.status).toBe(201);
    expect(res.body.data.credentials_summary.certificate_expires_at).toEqual(expect.any(String));
  });

  it.each([
    ['a certificate that does not parse', { certificate_pem: '-----BEGIN CERTIFICATE-----\nnot a certificate\n-----END CERTIFICATE-----' }, 'credentials.certificate_pem'],
    ['a key that does not match its certificate', { certificate_pem: pki.mismatchedClient.cert, private_key_pem: pki.mismatchedClient.key }, 'credentials.private_key_pem'],
    ['an expired certificate', { certificate_pem: pki.expiredClient.cert, private_key_pem: pki.expiredClient.key }, 'credentials.certificate_pem'],
    ['a missing field', { client_secret: undefined }, 'credentials.client_secret'],
  ])('refuses %s with 400 naming the field, and stores nothing', async (_case, overrides, field) => {
    const before = await count();
    const res = await call('POST', '/provider-accounts', account({ credentials: pemCredentials(overrides) }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(res.text).not.toContain(psp.clientSecret);
    expect(await count()).toBe(before);
  });

  it('refuses a PKCS#12 bundle with a wrong password, and an unknown provider', async () => {
    const wrong = { client_id: 'x', client_secret: 'y', pkcs12_base64: pki.clientP12.base64, pkcs12_password: 'wrong' };
    const p12 = await call('POST', '/provider-accounts', account({ credentials: wrong }));
    expect(p12.body.error.details.fields.map((f: { field: string }) => f.field)).toContain('credentials.pkcs12_password');
    const unknown = await call('POST', '/provider-accounts', account({ provider: 'nope' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields[0].field).toBe('provider');
  });

  it('checks an account against its PSP: a token and one read', async () => {
    const created = (await call('POST', '/provider-accounts', account())).body.data;
    const res = await call('POST', `/provider-accounts/${created.id}/check`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ ok: true, latency_ms: expect.any(Number) });
    psp.fail({ kind: 'status', status: 503, times: 10 });
    const failing = await call('POST', `/provider-accounts/${created.id}/check`);
    psp.reset();
    expect(failing.status).toBe(200);
    expect(failing.body.data.ok).toBe(false);
  });

  it("registers the account's webhook URL at the PSP, and a PSP that refuses is 502", async () => {
    const created = (await call('POST', '/provider-accounts', account())).body.data;
    const res = await call('POST', `/provider-accounts/${created.id}/webhook`);
    expect(res.status).toBe(200);
    expect(psp.webhooks.get('recebedor@example.com')?.webhookUrl).toBe(created.webhook_url);
    psp.fail({ kind: 'status', status: 500, times: 10 });
    const refused = await call('POST', `/provider-accounts/${created.id}/webhook`);
    psp.reset();
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream_status: 500 });
  });

  it('changes settings and replaces credentials whole; a bad replacement changes nothing', async () => {
    const created = (await call('POST', '/provider-accounts', account())).body.data;
    const renamed = await call('PATCH', `/provider-accounts/${created.id}`, { name: 'Renomeada', active: false });
    expect(renamed.body.data).toMatchObject({ name: 'Renomeada', active: false });
    const bad = await call('PATCH', `/provider-accounts/${created.id}`, { credentials: pemCredentials({ private_key_pem: pki.server.key }) });
    expect(bad.status).toBe(400);
    expect((await call('GET', `/provider-accounts/${created.id}`)).body.data).toEqual(renamed.body.data);
  });

  it('routes merchants to active accounts only: unknown or inactive ids are 400 and change nothing', async () => {
    const active = (await call('POST', '/provider-accounts', account())).body.data;
    const inactive = (await call('POST', '/provider-accounts', account())).body.data;
    await call('PATCH', `/provider-accounts/${inactive.id}`, { active: false });
    const merchant = (await call('POST', '/merchants', { name: 'Loja', provider_accounts: [active.id] })).body.data;
    expect(merchant.provider_accounts).toEqual([active.id]);
    for (const ids of [[inactive.id], ['pa_unknownunknownunknown1']]) {
      const res = await call('PATCH', `/merchants/${merchant.id}`, { provider_accounts: ids });
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields[0].field).toBe('provider_accounts');
    }
    expect((await call('GET', `/merchants/${merchant.id}`)).body.data.provider_accounts).toEqual([active.id]);
  });

  it('an account whose stored credentials can no longer be opened is a clear answer, never a 500', async () => {
    const created = (await call('POST', '/provider-accounts', account())).body.data;
    await t.dataSource.query(`UPDATE provider_accounts SET credentials_enc = 'v1.AAAA.AAAA.AAAA' WHERE id = $1`, [created.id]);
    const check = await call('POST', `/provider-accounts/${created.id}/check`);
    expect(check.body.data).toMatchObject({ ok: false, detail: expect.stringContaining(created.id) });
    const webhook = await call('POST', `/provider-accounts/${created.id}/webhook`);
    expect(webhook.status).toBe(502);
    const callback = await http(t.url, 'POST', `/webhooks/pix-api/${created.id}/pix`, { body: { pix: [] } });
    expect(callback.status).toBe(502);
  });

  it('an unknown or malformed account id is 404', async () => {
    expect((await call('GET', '/provider-accounts/pa_unknownunknownunknown1')).status).toBe(404);
    expect((await call('POST', '/provider-accounts/nope/check')).status).toBe(404);
  });
});

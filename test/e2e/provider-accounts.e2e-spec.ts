import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { testPki } from '../../src/testing/certificates';
import type { components } from '../../web/src/api-types';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { pixApiAccountBody } from '../helpers/factories';
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

  // Bodies the API refuses, read for their `details` (which the OpenAPI document leaves untyped): raw requests.
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
  const path = (id: string) => ({ params: { path: { id } } });
  const newAccount = async () => (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp) })).data!;
  const getAccount = (id: string) => t.admin.GET('/admin/api/provider-accounts/{id}', path(id));
  const patchAccount = (id: string, body: components['schemas']['UpdateProviderAccountDto']) => t.admin.PATCH('/admin/api/provider-accounts/{id}', { ...path(id), body });
  const checkAccount = (id: string) => t.admin.POST('/admin/api/provider-accounts/{id}/check', path(id));
  const registerWebhook = (id: string) => t.admin.POST('/admin/api/provider-accounts/{id}/webhook', path(id));
  const deleteAccount = (id: string) => t.admin.DELETE('/admin/api/provider-accounts/{id}', path(id));
  const count = async () => Number((await t.dataSource.query('SELECT count(*) AS n FROM provider_accounts'))[0].n);

  it('creates an account from a PEM pair: the summary, never the credentials, and the webhook URL the PSP must post to', async () => {
    const res = await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp) });
    expect(res.status).toBe(201);
    const created = res.data!;
    expect(created).toMatchObject({ provider: 'pix-api', environment: 'sandbox', active: true, pix_key: 'recebedor@example.com' });
    expect(created.webhook_url).toBe(`${t.config.publicBaseUrl}/webhooks/pix-api/${created.id}`);
    expect(created.credentials_summary).toEqual({ client_id: psp.clientId, certificate_subject: expect.any(String), certificate_expires_at: expect.any(String) });
    expect(res.text).not.toContain(psp.clientSecret);
    expect(res.text).not.toContain('PRIVATE KEY');
    const stored = (await t.dataSource.query('SELECT credentials_enc FROM provider_accounts WHERE id = $1', [created.id]))[0].credentials_enc;
    expect(stored).not.toContain(psp.clientSecret);
    expect((await getAccount(created.id)).data).toEqual(created);
    expect((await t.admin.GET('/admin/api/provider-accounts')).data!.map((a) => a.id)).toContain(created.id);
  });

  it('creates an account from a PKCS#12 bundle', async () => {
    const credentials = {
      client_id: psp.clientId,
      client_secret: psp.clientSecret,
      pkcs12_base64: pki.clientP12.base64,
      pkcs12_password: pki.clientP12.password,
      ca_pem: psp.caPem,
    };
    const res = await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp, { credentials }) });
    expect(res.status).toBe(201);
    expect(res.data!.credentials_summary.certificate_expires_at).toEqual(expect.any(String));
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
    const created = await newAccount();
    const res = await checkAccount(created.id);
    expect(res.status).toBe(200);
    expect(res.data).toMatchObject({ ok: true, latency_ms: expect.any(Number) });
    psp.fail({ kind: 'status', status: 503, times: 10 });
    const failing = await checkAccount(created.id);
    psp.reset();
    expect(failing.status).toBe(200);
    expect(failing.data!.ok).toBe(false);
  });

  it("registers the account's webhook URL at the PSP, and a PSP that refuses is 502", async () => {
    const created = await newAccount();
    const res = await registerWebhook(created.id);
    expect(res.status).toBe(200);
    expect(psp.webhooks.get('recebedor@example.com')?.webhookUrl).toBe(created.webhook_url);
    psp.fail({ kind: 'status', status: 500, times: 10 });
    const refused = await registerWebhook(created.id);
    psp.reset();
    expect(refused.status).toBe(502);
    expect(refused.error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream_status: 500 });
  });

  it('changes settings and replaces credentials whole; a bad replacement changes nothing', async () => {
    const created = await newAccount();
    const renamed = await patchAccount(created.id, { name: 'Renomeada', active: false });
    expect(renamed.data).toMatchObject({ name: 'Renomeada', active: false });
    const bad = await patchAccount(created.id, { credentials: pemCredentials({ private_key_pem: pki.server.key }) });
    expect(bad.status).toBe(400);
    expect((await getAccount(created.id)).data).toEqual(renamed.data);
  });

  describe('receiver account (where recurring charges settle)', () => {
    const receiver = { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' } as const;
    const stored = async (id: string) => (await t.dataSource.query('SELECT receiver_account FROM provider_accounts WHERE id = $1', [id]))[0].receiver_account;
    const acting = (id: string) => t.app.get(AccountResolver).byId(id);

    it('is null until set, taken on create, shown on every read, and given to the core with the account', async () => {
      const without = await newAccount();
      expect(without.receiver_account).toBeNull();
      expect((await acting(without.id)).receiverAccount).toBeNull();

      const res = await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp, { receiver_account: receiver }) });
      expect(res.status).toBe(201);
      expect(res.data!.receiver_account).toEqual(receiver);
      expect(await stored(res.data!.id)).toEqual(receiver);
      expect((await getAccount(res.data!.id)).data!.receiver_account).toEqual(receiver);
      expect((await t.admin.GET('/admin/api/provider-accounts')).data!.find((a) => a.id === res.data!.id)!.receiver_account).toEqual(receiver);
      expect((await acting(res.data!.id)).receiverAccount).toEqual(receiver);
    });

    it('is replaced whole by PATCH, kept by a PATCH that does not name it, and removed by null; the core sees each change at once', async () => {
      const created = await newAccount();
      const set = await patchAccount(created.id, { receiver_account: receiver });
      expect(set.status).toBe(200);
      expect(set.data!.receiver_account).toEqual(receiver);
      expect((await acting(created.id)).receiverAccount).toEqual(receiver);

      const savings = { agencia: '9708', conta: '01268200000000000001', tipoConta: 'POUPANCA' } as const;
      const replaced = await patchAccount(created.id, { receiver_account: savings });
      expect(replaced.data!.receiver_account).toEqual(savings);
      expect((await acting(created.id)).receiverAccount).toEqual(savings);

      const renamed = await patchAccount(created.id, { name: 'Renomeada' });
      expect(renamed.data!.receiver_account).toEqual(savings);

      const cleared = await patchAccount(created.id, { receiver_account: null });
      expect(cleared.status).toBe(200);
      expect(cleared.data!.receiver_account).toBeNull();
      expect(await stored(created.id)).toBeNull();
      expect((await acting(created.id)).receiverAccount).toBeNull();
    });

    it.each([
      ['a string', 'ag 0001 cc 1234567', 'receiver_account'],
      ['an array', [receiver], 'receiver_account'],
      ['a number', 5, 'receiver_account'],
      ['an empty object', {}, 'receiver_account.conta'],
      ['an agencia in an array', { ...receiver, agencia: ['0001'] }, 'receiver_account.agencia'],
      ['no agencia', { conta: '1234567', tipoConta: 'CORRENTE' }, 'receiver_account.agencia'],
      ['an agencia of 5 characters', { ...receiver, agencia: '00001' }, 'receiver_account.agencia'],
      ['an empty agencia', { ...receiver, agencia: '' }, 'receiver_account.agencia'],
      ['an agencia that is a number', { ...receiver, agencia: 1 }, 'receiver_account.agencia'],
      ['no conta', { agencia: '0001', tipoConta: 'CORRENTE' }, 'receiver_account.conta'],
      ['a conta of 21 characters', { ...receiver, conta: '1'.repeat(21) }, 'receiver_account.conta'],
      ['no tipoConta', { agencia: '0001', conta: '1234567' }, 'receiver_account.tipoConta'],
      ['an unknown tipoConta', { ...receiver, tipoConta: 'SALARIO' }, 'receiver_account.tipoConta'],
      ["the document's own misspelt example", { ...receiver, tipoConta: 'POUPANÇA' }, 'receiver_account.tipoConta'],
      ['an unknown field', { ...receiver, ispb: '00000000' }, 'receiver_account.ispb'],
    ])('refuses %s with 400 naming the field, on create and PATCH, and stores nothing', async (_case, value, field) => {
      const existing = await newAccount();
      await patchAccount(existing.id, { receiver_account: receiver });
      const before = await count();
      const created = await call('POST', '/provider-accounts', account({ receiver_account: value }));
      expect(created.status).toBe(400);
      expect(created.body.error.code).toBe('VALIDATION_ERROR');
      expect(created.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await count()).toBe(before);

      const patched = await call('PATCH', `/provider-accounts/${existing.id}`, { receiver_account: value, name: 'Outra' });
      expect(patched.status).toBe(400);
      expect(patched.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await stored(existing.id)).toEqual(receiver);
      expect((await getAccount(existing.id)).data).toMatchObject({ name: existing.name, receiver_account: receiver });
    });
  });

  it('routes merchants to active accounts only: unknown or inactive ids are 400 and change nothing', async () => {
    const active = await newAccount();
    const inactive = await newAccount();
    await patchAccount(inactive.id, { active: false });
    const merchant = (await t.admin.POST('/admin/api/merchants', { body: { name: 'Loja', provider_accounts: [active.id] } })).data!;
    expect(merchant.provider_accounts).toEqual([active.id]);
    for (const ids of [[inactive.id], ['pa_unknownunknownunknown1']]) {
      const res = await call('PATCH', `/merchants/${merchant.id}`, { provider_accounts: ids });
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields[0].field).toBe('provider_accounts');
    }
    expect((await t.admin.GET('/admin/api/merchants/{id}', path(merchant.id))).data!.provider_accounts).toEqual([active.id]);
  });

  it('an account whose stored credentials can no longer be opened is a clear answer, never a 500', async () => {
    const created = await newAccount();
    await t.dataSource.query(`UPDATE provider_accounts SET credentials_enc = 'v1.AAAA.AAAA.AAAA' WHERE id = $1`, [created.id]);
    const check = await checkAccount(created.id);
    expect(check.data).toMatchObject({ ok: false, detail: expect.stringContaining(created.id) });
    const webhook = await registerWebhook(created.id);
    expect(webhook.status).toBe(502);
    const callback = await http(t.url, 'POST', `/webhooks/pix-api/${created.id}/pix`, { body: { pix: [] } });
    expect(callback.status).toBe(502);
    // The operator learns why (above); an anonymous caller learns neither the account nor the reason.
    expect(callback.body.error.code).toBe('UPSTREAM_ERROR');
    expect(callback.text).not.toContain(created.id);
    expect(callback.text).not.toMatch(/SECRETS_KEY|credentials/i);
  });

  it('refuses a new base_url or token_url without new credentials: 400 naming credentials, and nothing changes', async () => {
    const created = await newAccount();
    for (const change of [{ base_url: `${psp.url}/outro` }, { token_url: `${psp.tokenUrl}?outro=1` }, { base_url: `${psp.url}/outro`, name: 'Outra' }]) {
      const res = await call('PATCH', `/provider-accounts/${created.id}`, change);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['credentials']);
    }
    expect((await getAccount(created.id)).data).toEqual(created);
    // The same host again is no change; a new host with its credentials is.
    expect((await patchAccount(created.id, { base_url: psp.url, name: 'Mesma' })).status).toBe(200);
    const moved = await patchAccount(created.id, { base_url: `${psp.url}/`, credentials: pemCredentials() });
    expect(moved.status).toBe(200);
    expect(moved.data!.base_url).toBe(`${psp.url}/`);
  });

  it.each([
    ['a cloud metadata address', 'https://169.254.169.254/latest'],
    ['the IPv6 cloud metadata address', 'https://[fd00:ec2::254]/'],
    ['an IPv4-mapped cloud metadata address', 'https://[::ffff:169.254.169.254]/'],
    ["Google's metadata host", 'https://metadata.google.internal/computeMetadata/v1'],
    ['user information', 'https://user:pass@psp.example.com/'],
    ['plain http', 'http://psp.example.com/'],
  ])('refuses a base_url or token_url with %s, even with private URLs allowed, on create and PATCH', async (_case, url) => {
    const created = await newAccount();
    const before = await count();
    for (const field of ['base_url', 'token_url']) {
      const res = await call('POST', '/provider-accounts', account({ [field]: url }));
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
      const patched = await call('PATCH', `/provider-accounts/${created.id}`, { [field]: url, credentials: pemCredentials() });
      expect(patched.status).toBe(400);
      expect(patched.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    expect(await count()).toBe(before);
    expect((await getAccount(created.id)).data).toEqual(created);
  });

  it('deletes an account nothing uses, with its secrets; 404 afterwards', async () => {
    const created = await newAccount();
    const res = await deleteAccount(created.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await t.dataSource.query('SELECT id FROM provider_accounts WHERE id = $1', [created.id])).toEqual([]);
    expect((await getAccount(created.id)).status).toBe(404);
    expect((await deleteAccount(created.id)).status).toBe(404);
    expect((await deleteAccount('nope')).status).toBe(404);
  });

  it('refuses to delete an account a merchant lists or a pending payment was charged through: 409 naming them', async () => {
    const listed = await newAccount();
    const merchant = await t.admin.newMerchant({ name: 'Loja', provider_accounts: [listed.id] });
    const refused = await deleteAccount(listed.id);
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'CONFLICT', details: { merchant_ids: [merchant.id], pending_payments: 0 } });
    expect(refused.error!.message).toContain(merchant.id);

    // Off the merchant's list, but a payment charged through it is still pending.
    const payment = await t.merchant(merchant.apiKey).POST('/v1/payments/create', {
      body: { amount: 10, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: 'order-delete' },
    });
    expect(payment.status).toBe(201);
    await t.admin.PATCH('/admin/api/merchants/{id}', { ...path(merchant.id), body: { provider_accounts: [] } });
    const pending = await deleteAccount(listed.id);
    expect(pending.status).toBe(409);
    expect(pending.error!.details).toEqual({ merchant_ids: [], pending_payments: 1 });
    expect((await getAccount(listed.id)).status).toBe(200);

    // Once the payment is settled, the account can go; the payment keeps the id of the account that charged it.
    await t.dataSource.query(`UPDATE payments SET status = 'expired' WHERE id = $1`, [payment.data!.id]);
    expect((await deleteAccount(listed.id)).status).toBe(204);
    expect((await t.dataSource.query('SELECT provider_account_id FROM payments WHERE id = $1', [payment.data!.id]))[0].provider_account_id).toBe(listed.id);
  });

  it('answers a callback to an inactive or unknown account with 404, without asking the PSP', async () => {
    const created = await newAccount();
    await patchAccount(created.id, { active: false });
    const requests = psp.requests.length;
    const pix = { pix: [{ endToEndId: `E${'1'.repeat(31)}`, txid: 'a'.repeat(32), valor: '10.00', horario: new Date().toISOString() }] };
    for (const path of [`/webhooks/pix-api/${created.id}/pix`, '/webhooks/pix-api/pa_unknownunknownunknown1/pix', `/webhooks/efi/${created.id}/pix`]) {
      const res = await http(t.url, 'POST', path, { body: pix });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect(psp.requests.length).toBe(requests);
  });

  it('an unknown or malformed account id is 404', async () => {
    expect((await getAccount('pa_unknownunknownunknown1')).status).toBe(404);
    expect((await checkAccount('nope')).status).toBe(404);
  });
});

import { testPki } from '../../src/testing/certificates';
import type { CreateProviderAccountBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { describeOn, startProductionTestApp, TEST_PRODUCTION_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

const pki = testPki();
const ADMIN = { authorization: `Bearer ${TEST_PRODUCTION_ADMIN_TOKEN}` };

/**
 * Under NODE_ENV=production without ALLOW_HOMOLOGATION_ACCOUNTS, an account on a PSP's homologation
 * host (`environment: sandbox`) is refused when saved and when charged through. Hosts are public
 * IP literals: production refuses private ones, and nothing here is connected to.
 */
describeOn('postgres', 'production refuses the embedded database')('homologation accounts under NODE_ENV=production', () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startProductionTestApp();
  });
  afterAll(() => gw?.close());

  const call = (method: string, path: string, body?: unknown) => http(gw.url, method, `/admin/api${path}`, { body, headers: ADMIN });
  const account = (overrides: Partial<CreateProviderAccountBody> = {}) => ({
    name: 'Banco',
    provider: 'pix-api' as const,
    base_url: 'https://8.8.8.8/api/v2',
    token_url: 'https://8.8.8.8/oauth/token',
    pix_key: 'recebedor@example.com',
    credentials: { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: pki.client.cert, private_key_pem: pki.client.key },
    ...overrides,
  });
  const count = async () => (await gw.dataSource.query('SELECT count(*)::int AS n FROM provider_accounts'))[0].n;

  it('refuses to create one (the default environment is sandbox): 400 naming environment, nothing stored; a production account is fine', async () => {
    const before = await count();
    for (const body of [account(), account({ environment: 'sandbox' })]) {
      const res = await call('POST', '/provider-accounts', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'environment' })] } });
    }
    expect(await count()).toBe(before);
    expect((await gw.admin.POST('/admin/api/provider-accounts', { body: account({ environment: 'production' }) })).status).toBe(201);
  });

  it('refuses to charge through one stored earlier, clearly and naming its provider; a PATCH may only deactivate it', async () => {
    const created = (await gw.admin.POST('/admin/api/provider-accounts', { body: account({ environment: 'production' }) })).data!;
    const merchant = await gw.admin.newMerchant({ name: 'Loja', provider_accounts: [created.id] });
    // Stored before the rule (or while ALLOW_HOMOLOGATION_ACCOUNTS was set).
    await gw.dataSource.query(`UPDATE provider_accounts SET environment = 'sandbox' WHERE id = $1`, [created.id]);

    const res = await gw.merchant(merchant.apiKey).POST('/v1/payments/create', {
      body: { amount: 10, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: 'order-1' },
    });
    expect(res.status).toBe(502);
    expect(res.body.provider).toBe('pix-api');
    expect(res.error?.code).toBe('PAYMENT_CREATE_FAILED');
    expect(res.error?.message).toMatch(/homologation/);
    expect(res.text).not.toContain(created.id);
    expect(await gw.dataSource.query('SELECT id FROM payments WHERE merchant_id = $1', [merchant.id])).toEqual([]);

    const renamed = await call('PATCH', `/provider-accounts/${created.id}`, { name: 'Outro nome' });
    expect(renamed.status).toBe(400);
    expect(renamed.body.error.details.fields[0].field).toBe('environment');
    expect((await gw.admin.PATCH('/admin/api/provider-accounts/{id}', { params: { path: { id: created.id } }, body: { active: false } })).status).toBe(200);
  });
});

import { randomUUID } from 'node:crypto';
import { paymentBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { startTestApp, type TestApp } from '../helpers/test-app';

const ACCOUNT_SECRET = 'whsec_sandbox_account_0123456789';

/**
 * The sandbox as a provider account like any other (docs/providers.md): stored, routed to, charged
 * through, and its events received at the account's own webhook URL, signed with the account's
 * own secret, while the gateway's built-in sandbox configuration has none.
 */
describe('a sandbox provider account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('charges through the account and applies only the events signed with its secret', async () => {
    const account = (
      await t.admin.POST('/admin/api/provider-accounts', { body: { name: 'Sandbox da Loja', provider: 'sandbox', credentials: { webhook_secret: ACCOUNT_SECRET } } })
    ).data!;
    expect(account).toMatchObject({ provider: 'sandbox', webhook_url: `${t.config.publicBaseUrl}/webhooks/sandbox/${account.id}`, credentials_summary: { client_id: null } });
    const merchant = await t.admin.newMerchant({ provider_accounts: [account.id] });

    const created = await t.merchant(merchant.apiKey).POST('/v1/payments/create', { body: paymentBody() });
    expect(created.status).toBe(201);
    const payment = created.data!;
    const detail = (await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id: payment.id } } })).data;
    expect(detail).toMatchObject({ provider: 'sandbox', can_simulate: true });

    // The simulated PSP posts to the account's URL, signed with the account's secret; the gateway verifies it with that secret.
    const simulated = await t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id: payment.id } }, body: { event: 'payment.confirmed' } });
    expect(simulated.data).toMatchObject({ simulation: { delivered: true, status: 200 }, payment: { status: 'paid' } });

    // An unsigned event at the account's URL changes nothing, though the built-in sandbox takes unsigned ones.
    const forged = { event: 'payment.refunded', id: `evt_${randomUUID()}`, data: { id: payment.id, amount: 10.5 } };
    const refused = await http(t.url, 'POST', `/webhooks/sandbox/${account.id}`, { body: forged });
    expect(refused).toMatchObject({ status: 401, body: { success: false, error: { code: 'INVALID_SIGNATURE' } } });
    expect((await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id: payment.id } } })).data?.status).toBe('paid');
  });

  it("checks the account at the simulated PSP, and refuses credentials that are not the sandbox's", async () => {
    const account = (await t.admin.POST('/admin/api/provider-accounts', { body: { name: 'Sandbox', provider: 'sandbox', credentials: {} } })).data!;
    const path = { id: account.id };
    await expect(t.admin.POST('/admin/api/provider-accounts/{id}/check', { params: { path } })).resolves.toMatchObject({ status: 200, body: { data: { ok: true } } });
    const bad = await t.admin.POST('/admin/api/provider-accounts', { body: { name: 'Sandbox', provider: 'sandbox', credentials: { webhook_secret: 'short' } } });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'credentials.webhook_secret' })] } } },
    });
    const webhook = await t.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path } });
    expect(webhook).toMatchObject({ status: 409, body: { error: { code: 'CONFLICT' } } });
  });

  it("refuses a base_url of the account's own: the gateway's sandbox API token goes nowhere else", async () => {
    const elsewhere = await t.admin.POST('/admin/api/provider-accounts', {
      body: { name: 'Sandbox', provider: 'sandbox', base_url: 'https://93.184.215.14/sandbox', credentials: {} },
    });
    expect(elsewhere).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'base_url' })] } } },
    });
  });
});

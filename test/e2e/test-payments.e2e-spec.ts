import { randomUUID } from 'node:crypto';
import { testPki } from '../../src/testing/certificates';
import { http } from '../helpers/http';
import { describeOn, startProductionTestApp, startTestApp, TEST_ADMIN_TOKEN, TEST_PRODUCTION_ADMIN_TOKEN, type TestApp } from '../helpers/test-app';

/** The BCB's end-to-end id: E, an 8-digit ISPB, yyyyMMddHHmm, 11 letters or digits. */
const END_TO_END_ID = /^E\d{20}[a-zA-Z0-9]{11}$/;

/**
 * The dashboard's "create a test payment" (`POST /admin/api/test-payments`, docs/dashboard.md, Test
 * mode): a payment made for a merchant as its API would make it, only through test PSPs.
 */
describeOn('embedded', 'HTTP behaviour the database does not change')('test payments from the dashboard', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const create = (body: { merchantId: string; amount: number; description?: string | null }, key: string = randomUUID()) =>
    t.admin.POST('/admin/api/test-payments', { body, params: { header: { 'Idempotency-Key': key } } });
  const paymentsOf = (merchantId: string): Promise<{ id: string }[]> => t.dataSource.query('SELECT id FROM payments WHERE merchant_id = $1', [merchantId]);

  it("creates a payment through the merchant's sandbox route, addressed to the test payer, once per Idempotency-Key", async () => {
    const merchant = await t.admin.newMerchant({ provider: 'sandbox' });
    const key = `dashboard-test-payment-${randomUUID()}`;
    const created = await create({ merchantId: merchant.id, amount: 12.34, description: 'Trying the checkout' }, key);
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      status: 'pending',
      amount: 12.34,
      description: 'Trying the checkout',
      provider: 'sandbox',
      environment: 'sandbox',
      recipient: { document: '12345678909', name: 'Test payer' },
      externalId: expect.stringMatching(/^test-[0-9a-f]{24}$/),
      pix: { txid: expect.any(String), copyPaste: expect.stringMatching(/^000201/) },
    });

    // The same key and body: the same payment, replayed; another body under the key: refused, as on the merchant API.
    const again = await create({ merchantId: merchant.id, amount: 12.34, description: 'Trying the checkout' }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data?.id).toBe(created.data!.id);
    const other = await create({ merchantId: merchant.id, amount: 99, description: 'Trying the checkout' }, key);
    expect(other).toMatchObject({ status: 422, body: { error: { code: 'IDEMPOTENCY_KEY_REUSED' } } });
    expect(await paymentsOf(merchant.id)).toEqual([{ id: created.data!.id }]);

    // The merchant sees it in its own API; paid by simulation, it reports the Pix as a PSP would (point 4).
    const path = { id: created.data!.id };
    const simulated = await t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path }, body: { event: 'payment.confirmed' } });
    expect(simulated.data).toMatchObject({ simulation: { delivered: true }, payment: { status: 'paid' } });
    const read = await t.merchant(merchant.apiKey).GET('/v1/payments/{id}', { params: { path } });
    expect(read.data).toMatchObject({
      status: 'paid',
      paidAmount: 12.34,
      pix: { endToEndId: expect.stringMatching(END_TO_END_ID) },
      payer: { name: 'Test payer', document: '***.456.789-**' },
    });
  });

  it('refuses a merchant whose route includes a production account: 409, naming it, and nothing is charged', async () => {
    const live = await t.admin.POST('/admin/api/provider-accounts', {
      body: {
        name: 'Banco (live)',
        provider: 'pix-api',
        environment: 'production',
        base_url: 'https://8.8.8.8/api/v2',
        token_url: 'https://8.8.8.8/oauth/token',
        pix_key: 'recebedor@example.com',
        // Nothing is connected to: the account is only listed on the route.
        credentials: { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: testPki().client.cert, private_key_pem: testPki().client.key },
      },
    });
    expect(live.status).toBe(201);
    const test = (await t.admin.POST('/admin/api/provider-accounts', { body: { name: 'Sandbox', provider: 'sandbox', credentials: {} } })).data!;
    // A test account first does not make the route a test one: routing may fall through to the live account.
    const merchant = await t.admin.newMerchant({ provider_accounts: [test.id, live.data!.id] });
    const refused = await create({ merchantId: merchant.id, amount: 10 });
    expect(refused.status).toBe(409);
    expect(refused.error).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(live.data!.id) });
    expect(refused.error?.message).toMatch(/production account/);
    expect(await paymentsOf(merchant.id)).toEqual([]);
  });

  it('refuses an inactive merchant (409), an unknown one (404) and a request without an Idempotency-Key (400), creating nothing', async () => {
    const inactive = await t.newMerchant({ active: false });
    await expect(create({ merchantId: inactive.merchant.id, amount: 10 })).resolves.toMatchObject({ status: 409, body: { error: { code: 'CONFLICT' } } });
    await expect(create({ merchantId: 'mer_doesnotexist', amount: 10 })).resolves.toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    const merchant = await t.admin.newMerchant({ provider: 'sandbox' });
    const keyless = await http(t.url, 'POST', '/admin/api/test-payments', {
      body: { merchantId: merchant.id, amount: 10 },
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(keyless).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR' } } });
    expect([...(await paymentsOf(merchant.id)), ...(await paymentsOf(inactive.merchant.id))]).toEqual([]);
  });
});

describeOn('postgres', 'production refuses the embedded database')('test payments under NODE_ENV=production', () => {
  let gw: TestApp;
  beforeAll(async () => {
    gw = await startProductionTestApp();
  });
  afterAll(() => gw?.close());

  it('are refused: 403, nothing created', async () => {
    const merchant = await gw.admin.newMerchant({ name: 'Loja' });
    const res = await http(gw.url, 'POST', '/admin/api/test-payments', {
      body: { merchantId: merchant.id, amount: 10 },
      headers: { authorization: `Bearer ${TEST_PRODUCTION_ADMIN_TOKEN}`, 'idempotency-key': randomUUID() },
    });
    expect(res).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN', message: expect.stringMatching(/production/) } } });
    expect(await gw.dataSource.query('SELECT id FROM payments WHERE merchant_id = $1', [merchant.id])).toEqual([]);
  });
});

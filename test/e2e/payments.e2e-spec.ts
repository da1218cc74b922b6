import { parsePix } from 'pix-utils';
import { type CreatePaymentBody, MerchantFixture, paymentBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

describe('payments API (HTTP)', () => {
  let t: TestApp;
  let shop: MerchantFixture;
  const create = (body: CreatePaymentBody, merchant = shop) => t.merchant(merchant.apiKey).POST('/v1/payments/create', { body });

  beforeAll(async () => {
    t = await startTestApp();
    shop = await t.newMerchant();
  });
  afterAll(() => t.close());

  it('creates a payment with a real BR Code for the amount and its QR image', async () => {
    const res = await create(paymentBody({ amount: 10.5, externalId: 'order-1234' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, provider: 'sandbox', request_id: res.headers.get('x-request-id') });
    const payment = res.data!;
    expect(payment).toMatchObject({
      status: 'pending',
      amount: 10.5,
      currency: 'BRL',
      externalId: 'order-1234',
      recipient: { document: '12345678909', name: 'Ana Souza' },
      provider: 'sandbox',
      paidAt: null,
    });
    expect(payment.id).toMatch(/^pay_[A-Za-z0-9]{24}$/);
    expect(payment.pix.txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    expect(payment.pix.qrCodePng).toMatch(/^data:image\/png;base64,/);
    const brCode = parsePix(payment.pix.copyPaste);
    expect(brCode).toMatchObject({ transactionAmount: 10.5 });
  });

  it('creates through the Pix path, which fixes the method', async () => {
    const ok = await t.merchant(shop.apiKey).POST('/v1/pix/create', { body: paymentBody() });
    expect(ok.status).toBe(201);
    // `method` is not in the Pix path's body at all: sent raw, as the typed client would not send it.
    const refused = await http(t.url, 'POST', '/v1/pix/create', {
      body: paymentBody({ method: 'pix' }),
      headers: { 'x-merchant-key': shop.apiKey, 'idempotency-key': 'pix-method' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toEqual([expect.objectContaining({ field: 'method' })]);
  });

  it('reads a payment back on both paths, and only for its own merchant', async () => {
    const created = (await create(paymentBody())).data!;
    const read = (merchant: MerchantFixture, id: string) => t.merchant(merchant.apiKey).GET('/v1/payments/{id}', { params: { path: { id } } });
    for (const res of [await read(shop, created.id), await t.merchant(shop.apiKey).GET('/v1/pix/{id}', { params: { path: { id: created.id } } })]) {
      expect(res.status).toBe(200);
      expect(res.data).toEqual(created);
    }
    const other = await read(await t.newMerchant(), created.id);
    const missing = await read(shop, `pay_${'x'.repeat(24)}`);
    const malformed = await read(shop, `not-an-id'--`);
    for (const res of [other, missing, malformed]) {
      expect(res.status).toBe(404);
      expect(res.error?.code).toBe('NOT_FOUND');
    }
    expect(other.error?.message).toBe(missing.error?.message);
  });

  it('lists payments for the admin, newest first, with filters and cursor paging', async () => {
    const merchant = await t.newMerchant();
    for (let i = 0; i < 3; i++) await create(paymentBody({ externalId: `list-${i}` }), merchant);
    const first = await t.admin.GET('/admin/api/payments', { params: { query: { merchant_id: merchant.merchant.id, limit: 2 } } });
    expect(first.status).toBe(200);
    expect(first.data!.items.map((p) => p.externalId)).toEqual(['list-2', 'list-1']);
    const second = await t.admin.GET('/admin/api/payments', { params: { query: { merchant_id: merchant.merchant.id, limit: 2, cursor: first.data!.next_cursor! } } });
    expect(second.data).toMatchObject({ items: [expect.objectContaining({ externalId: 'list-0' })], next_cursor: null });
    const byExternal = await t.admin.GET('/admin/api/payments', { params: { query: { external_id: 'list-1', status: 'pending' } } });
    expect(byExternal.data!.items).toHaveLength(1);
    // Without a token, and with a status the API does not know: raw requests the typed client would not make.
    expect((await http(t.url, 'GET', '/admin/api/payments')).status).toBe(401);
    const auth = { authorization: `Bearer ${t.config.adminApiToken.reveal()}` };
    expect((await http(t.url, 'GET', '/admin/api/payments?status=lost', { headers: auth })).body.error.code).toBe('VALIDATION_ERROR');
  });
});

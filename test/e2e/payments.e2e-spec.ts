import { parsePix } from 'pix-utils';
import { MerchantFixture, paymentBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

describe('payments API (HTTP)', () => {
  let t: TestApp;
  let shop: MerchantFixture;
  let key = 0;
  const create = (body: unknown, merchant = shop, path = '/v1/payments/create') =>
    http(t.url, 'POST', path, { body, headers: { 'x-merchant-key': merchant.apiKey, 'idempotency-key': `k-${++key}` } });

  beforeAll(async () => {
    t = await startTestApp();
    shop = await t.newMerchant();
  });
  afterAll(() => t.close());

  it('creates a payment with a real BR Code for the amount and its QR image', async () => {
    const res = await create(paymentBody({ amount: 10.5, externalId: 'order-1234' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, provider: 'sandbox', request_id: res.headers.get('x-request-id') });
    const payment = res.body.data;
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
    const ok = await create(paymentBody(), shop, '/v1/pix/create');
    expect(ok.status).toBe(201);
    const refused = await create(paymentBody({ method: 'pix' }), shop, '/v1/pix/create');
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields).toEqual([expect.objectContaining({ field: 'method' })]);
  });

  it('reads a payment back on both paths, and only for its own merchant', async () => {
    const created = (await create(paymentBody())).body.data;
    for (const path of [`/v1/payments/${created.id}`, `/v1/pix/${created.id}`]) {
      const res = await http(t.url, 'GET', path, { headers: { 'x-merchant-key': shop.apiKey } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(created);
    }
    const stranger = await t.newMerchant();
    const other = await http(t.url, 'GET', `/v1/payments/${created.id}`, { headers: { 'x-merchant-key': stranger.apiKey } });
    const missing = await http(t.url, 'GET', `/v1/payments/pay_${'x'.repeat(24)}`, { headers: { 'x-merchant-key': shop.apiKey } });
    const malformed = await http(t.url, 'GET', `/v1/payments/not-an-id'--`, { headers: { 'x-merchant-key': shop.apiKey } });
    for (const res of [other, missing, malformed]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect(other.body.error.message).toBe(missing.body.error.message);
  });

  it('lists payments for the admin, newest first, with filters and cursor paging', async () => {
    const merchant = await t.newMerchant();
    for (let i = 0; i < 3; i++) await create(paymentBody({ externalId: `list-${i}` }), merchant);
    const auth = { authorization: 'Bearer test-admin-token-0123456789' };
    const first = await http(t.url, 'GET', `/admin/api/payments?merchant_id=${merchant.merchant.id}&limit=2`, { headers: auth });
    expect(first.status).toBe(200);
    expect(first.body.data.items.map((p: { externalId: string }) => p.externalId)).toEqual(['list-2', 'list-1']);
    const second = await http(t.url, 'GET', `/admin/api/payments?merchant_id=${merchant.merchant.id}&limit=2&cursor=${first.body.data.next_cursor}`, { headers: auth });
    expect(second.body.data).toMatchObject({ items: [expect.objectContaining({ externalId: 'list-0' })], next_cursor: null });
    const byExternal = await http(t.url, 'GET', `/admin/api/payments?external_id=list-1&status=pending`, { headers: auth });
    expect(byExternal.body.data.items).toHaveLength(1);
    expect((await http(t.url, 'GET', '/admin/api/payments')).status).toBe(401);
    expect((await http(t.url, 'GET', '/admin/api/payments?status=lost', { headers: auth })).body.error.code).toBe('VALIDATION_ERROR');
  });
});

import { ApiKey } from '../../src/merchants/api-key.entity';
import { Merchant } from '../../src/merchants/merchant.entity';
import { MerchantFixture, paymentBody } from '../helpers/factories';
import { http, HttpResult } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

/** The envelope (docs/api.md, The envelope) on every kind of failure the HTTP layer itself produces. */
describe('envelope and error table (HTTP)', () => {
  let t: TestApp;
  let shop: MerchantFixture;
  beforeAll(async () => {
    t = await startTestApp();
    shop = await t.newMerchant();
  });
  afterAll(() => t.close());

  function expectError(res: HttpResult, status: number, code: string): void {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({
      success: false,
      request_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      provider: 'sandbox',
      error: expect.objectContaining({ code, message: expect.any(String) }),
    });
    expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/); // never a stack
  }
  const createWith = (headers: Record<string, string>) => http(t.url, 'POST', '/v1/payments/create', { body: paymentBody(), headers: { 'idempotency-key': 'k', ...headers } });

  it('answers /health with {"status":"ok"} once migrated', async () => {
    const res = await http(t.url, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('MISSING_MERCHANT_KEY without the header', async () => expectError(await createWith({}), 401, 'MISSING_MERCHANT_KEY'));

  it('INVALID_MERCHANT_KEY for an unknown, a revoked key, and an inactive merchant', async () => {
    expectError(await createWith({ 'x-merchant-key': `mk_live_${'A'.repeat(32)}` }), 401, 'INVALID_MERCHANT_KEY');
    expectError(await createWith({ 'x-merchant-key': 'garbage' }), 401, 'INVALID_MERCHANT_KEY');
    const revoked = await t.newMerchant();
    await t.dataSource.getRepository(ApiKey).update({ id: revoked.apiKeyId }, { revokedAt: new Date() });
    expectError(await createWith({ 'x-merchant-key': revoked.apiKey }), 401, 'INVALID_MERCHANT_KEY');
    const inactive = await t.newMerchant();
    await t.dataSource.getRepository(Merchant).update({ id: inactive.merchant.id }, { active: false });
    expectError(await createWith({ 'x-merchant-key': inactive.apiKey }), 401, 'INVALID_MERCHANT_KEY');
  });

  it('NOT_FOUND for unknown routes and methods', async () => {
    expectError(await http(t.url, 'GET', '/v1/nope'), 404, 'NOT_FOUND');
    expectError(await http(t.url, 'DELETE', '/v1/payments/create'), 404, 'NOT_FOUND');
  });

  it('VALIDATION_ERROR for malformed JSON', async () => {
    const res = await http(t.url, 'POST', '/v1/payments/create', {
      rawBody: '{"amount": 10.5,',
      headers: { 'content-type': 'application/json', 'x-merchant-key': shop.apiKey, 'idempotency-key': 'k' },
    });
    expectError(res, 400, 'VALIDATION_ERROR');
  });

  it('PAYLOAD_TOO_LARGE over 64 KiB', async () => {
    const res = await http(t.url, 'POST', '/v1/payments/create', {
      body: paymentBody({ description: 'x'.repeat(70 * 1024) }),
      headers: { 'x-merchant-key': shop.apiKey, 'idempotency-key': 'k' },
    });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await http(t.url, 'POST', '/v1/payments/create', {
        rawBody: 'amount=10.5',
        headers: { 'content-type': type, 'x-merchant-key': shop.apiKey, 'idempotency-key': 'k' },
      });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('UNAUTHORIZED on the admin API without a valid bearer token', async () => {
    expectError(await http(t.url, 'GET', '/admin/api/payments'), 401, 'UNAUTHORIZED');
    expectError(await http(t.url, 'GET', '/admin/api/payments', { headers: { authorization: 'Bearer wrong' } }), 401, 'UNAUTHORIZED');
  });

  it('serves the OpenAPI document with both auth schemes and the payment routes', async () => {
    const res = await http(t.url, 'GET', '/docs/json');
    expect(res.status).toBe(200);
    expect(res.body.components.securitySchemes).toMatchObject({ merchantKey: { in: 'header', name: 'X-Merchant-Key' }, adminToken: { scheme: 'bearer' } });
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/v1/payments/create', '/v1/pix/create', '/v1/payments/{id}', '/v1/pix/{id}']));
    expect(res.body.paths['/v1/payments/create'].post.responses).toHaveProperty('502');
    expect((await http(t.url, 'GET', '/docs')).status).toBe(200);
  });
});

import { paymentBody } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * `GET /v1/payments` over HTTP: a bad filter is a 400 naming it, and a payment is listed as its
 * create answered it. Which payments it lists, in what order and page by page, is
 * test/medium/payments-list.spec.ts.
 */
describe('GET /v1/payments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a bad filter with VALIDATION_ERROR naming it', async () => {
    const shop = await t.newMerchant();
    const bad: [Record<string, string>, string][] = [
      [{ status: 'lost' }, 'status'],
      [{ limit: '0' }, 'limit'],
      [{ limit: '101' }, 'limit'],
      [{ created_from: 'yesterday' }, 'created_from'],
      [{ created_to: '2026-13-01' }, 'created_to'],
      [{ externalId: 'with space' }, 'externalId'],
      [{ cursor: 'not a cursor!' }, 'cursor'],
      [{ cursor: 'bm90LWEtY3Vyc29y' }, 'cursor'],
      [{ merchant_id: 'mer_x' }, 'merchant_id'],
    ];
    for (const [query, field] of bad) {
      const res = await t.merchant(shop.apiKey).GET('/v1/payments', { params: { query: query as never } });
      expect({ query, status: res.status, code: res.error?.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
      expect(res.error?.details).toMatchObject({ fields: [expect.objectContaining({ field })] });
    }
  });

  it('shows a created payment in the list with its refunded amount', async () => {
    const shop = await t.newMerchant();
    const created = (await t.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody({ externalId: 'order-list-1' }) })).data!;
    const listed = (await t.merchant(shop.apiKey).GET('/v1/payments', { params: { query: { externalId: 'order-list-1' } } })).data!;
    expect(listed.items).toEqual([{ ...created, updatedAt: expect.any(String) }]);
    expect(listed.items[0]!.refundedAmount).toBe(0);
  });
});

import { paymentBody } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * `GET /v1/payments`: a merchant finds its own payments, newest first, by `externalId`, status and
 * creation time, page by page; no other merchant's payment ever appears; a bad filter is a 400
 * naming it.
 */
describe('GET /v1/payments', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists only the merchant's own payments, newest first, a page at a time", async () => {
    const mine = await t.newMerchant();
    const theirs = await t.newMerchant();
    const base = Date.now() - 60_000;
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await t.newPayment(mine.merchant.id, { createdAt: new Date(base + i * 1000) }));
    await t.newPayment(theirs.merchant.id, { createdAt: new Date(base + 10_000) });

    const first = await t.merchant(mine.apiKey).GET('/v1/payments', { params: { query: { limit: 2 } } });
    expect(first.status).toBe(200);
    expect(first.data!.items.map((p) => p.id)).toEqual([created[4]!.id, created[3]!.id]);
    const seen = [...first.data!.items];
    let cursor = first.data!.next_cursor;
    while (cursor) {
      const page = await t.merchant(mine.apiKey).GET('/v1/payments', { params: { query: { limit: 2, cursor } } });
      seen.push(...page.data!.items);
      cursor = page.data!.next_cursor;
    }
    expect(seen.map((p) => p.id)).toEqual([...created].reverse().map((p) => p.id));
  });

  it('finds the payment of an order by its externalId, and filters by status and creation time', async () => {
    const shop = await t.newMerchant();
    const other = await t.newMerchant();
    const order = await t.newPayment(shop.merchant.id, { externalId: 'order-42', status: 'paid', createdAt: new Date('2026-11-01T12:00:00Z') });
    await t.newPayment(shop.merchant.id, { externalId: 'order-43', createdAt: new Date('2026-11-02T12:00:00Z') });
    // Another merchant's payment for an order of the same name never shows.
    await t.newPayment(other.merchant.id, { externalId: 'order-42' });
    const list = (query: Record<string, string | number>) => t.merchant(shop.apiKey).GET('/v1/payments', { params: { query } });

    expect((await list({ externalId: 'order-42' })).data!.items.map((p) => p.id)).toEqual([order.id]);
    expect((await list({ status: 'paid' })).data!.items.map((p) => p.id)).toEqual([order.id]);
    expect((await list({ created_from: '2026-11-02T00:00:00Z' })).data!.items.map((p) => p.externalId)).toEqual(['order-43']);
    expect((await list({ created_to: '2026-11-02T00:00:00Z' })).data!.items.map((p) => p.externalId)).toEqual(['order-42']);
    expect((await list({ externalId: 'order-none' })).data).toEqual({ items: [], next_cursor: null });
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

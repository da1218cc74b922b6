import { generateSigningSecret } from '../../src/merchants/signing-secret';
import { attemptsOf, confirmPayment, DELIVERY_ENV, settled } from '../helpers/deliveries';
import { http } from '../helpers/http';
import { MerchantReceivers } from '../helpers/merchant-receivers';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/**
 * The admin routes of forwards to merchants over HTTP: the list and redeliver, one delivery with its
 * answers, and the test event. What the worker sends, and the rest of what these routes read, are
 * test/medium/webhook-delivery.spec.ts.
 */
describe('webhook delivery to merchants (HTTP)', () => {
  let t: TestApp;
  const receivers = new MerchantReceivers();
  beforeAll(async () => {
    t = await startTestApp({ env: DELIVERY_ENV });
  });
  afterAll(async () => {
    await receivers.close();
    await t.close();
  });

  it('fails after the last scheduled attempt; redeliver sends it again and keeps the history', async () => {
    const { shop, receiver } = await receivers.newMerchant(t, generateSigningSecret());
    receiver.respondWith(() => ({ status: 500 }));
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    const failed = await settled(t, payment.id, 'failed', 4);
    expect(receiver.received).toHaveLength(4);

    const listed = await t.admin.GET('/admin/api/webhook-deliveries', { params: { query: { status: 'failed', merchant_id: shop.merchant.id } } });
    expect(listed.status).toBe(200);
    expect(listed.data!.items).toEqual([
      expect.objectContaining({
        id: failed!.id,
        status: 'failed',
        merchant_name: shop.merchant.name,
        event_type: 'payment.confirmed',
        attempts: 4,
        last_status_code: 500,
        last_error: 'HTTP 500',
      }),
    ]);

    receiver.respondWith(() => ({ status: 200 }));
    const redelivered = await t.admin.POST('/admin/api/webhook-deliveries/{id}/redeliver', { params: { path: { id: failed!.id } } });
    expect(redelivered.status).toBe(200);
    expect(redelivered.data).toMatchObject({ id: failed!.id, status: 'pending', attempts: 4 });
    await receiver.waitForCount(5);
    expect(receiver.received[4]!.verified).toBe(true);
    expect(receiver.received[4]!.headers['webhook-id']).toBe(failed!.id);
    await settled(t, payment.id, 'delivered', 5);
    expect((await attemptsOf(t, failed!.id)).map((a) => a.status_code)).toEqual([500, 500, 500, 500, 200]);
  });

  it('redelivers a delivered forward too', async () => {
    const { shop, receiver } = await receivers.newMerchant(t);
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'delivered', 1);
    const res = await t.admin.POST('/admin/api/webhook-deliveries/{id}/redeliver', { params: { path: { id: delivery!.id } } });
    expect(res.status).toBe(200);
    await receiver.waitForCount(2);
    expect(receiver.received[1]!.raw).toBe(receiver.received[0]!.raw);
    await settled(t, payment.id, 'delivered', 2);
  });

  describe('admin API', () => {
    it('pages newest first with a cursor and filters by status and merchant', async () => {
      const { shop, receiver } = await receivers.newMerchant(t);
      receiver.respondWith(() => ({ status: 410 }));
      const payments = [await t.newPayment(shop.merchant.id), await t.newPayment(shop.merchant.id), await t.newPayment(shop.merchant.id)];
      for (const p of payments) {
        await confirmPayment(t, p.id);
        await settled(t, p.id, 'failed', 1);
      }
      const page = async (cursor?: string) =>
        (await t.admin.GET('/admin/api/webhook-deliveries', { params: { query: { merchant_id: shop.merchant.id, limit: 2, cursor } } })).data!;
      const first = await page();
      const second = await page(first.next_cursor!);
      expect([...first.items, ...second.items].map((d) => d.payment_id)).toEqual(payments.map((p) => p.id).reverse());
      expect(second.next_cursor).toBeNull();
      const delivered = await t.admin.GET('/admin/api/webhook-deliveries', { params: { query: { status: 'delivered', merchant_id: shop.merchant.id } } });
      expect(delivered.data!.items).toEqual([]);
    });

    it('refuses a bad status filter, an unknown delivery and a missing token', async () => {
      expect((await http(t.url, 'GET', '/admin/api/webhook-deliveries?status=lost', { headers: ADMIN })).body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      const unknown = await t.admin.POST('/admin/api/webhook-deliveries/{id}/redeliver', { params: { path: { id: 'dlv_000000000000000000000000' } } });
      expect(unknown.status).toBe(404);
      expect((await http(t.url, 'GET', '/admin/api/webhook-deliveries')).status).toBe(401);
    });
  });

  describe('GET /admin/api/webhook-deliveries/:id', () => {
    it('shows the body sent and each attempt’s answer, its body cut at 1 KiB on a whole UTF-8 character', async () => {
      const { shop, receiver } = await receivers.newMerchant(t, generateSigningSecret());
      // 1 + 2 × 3000 bytes: byte 1,024 falls inside a "ç", which must not be split.
      const big = `x${'ç'.repeat(3000)}`;
      receiver.respondWith((r) =>
        r.seq === 1 ? { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: big } : { status: 200, body: '{"received":true}' },
      );
      const payment = await t.newPayment(shop.merchant.id);
      await confirmPayment(t, payment.id);
      const delivery = await settled(t, payment.id, 'delivered', 2);

      const res = await t.admin.GET('/admin/api/webhook-deliveries/{id}', { params: { path: { id: delivery!.id } } });
      expect(res.status).toBe(200);
      expect(res.data!.body).toEqual(receiver.received[0]!.body);
      const [first, second] = res.data!.attempt_history;
      expect(first).toMatchObject({ attempt: 1, status_code: 500, error: 'HTTP 500', url: receiver.url, latency_ms: expect.any(Number) });
      expect(Buffer.byteLength(first!.response_excerpt!, 'utf8')).toBe(1023);
      expect(first!.response_excerpt).toBe(big.slice(0, 512));
      expect(second).toMatchObject({ attempt: 2, status_code: 200, error: null, response_excerpt: '{"received":true}' });
    });

    it('is 404 for an unknown delivery', async () => {
      const res = await t.admin.GET('/admin/api/webhook-deliveries/{id}', { params: { path: { id: 'dlv_000000000000000000000000' } } });
      expect(res.status).toBe(404);
      expect(res.error).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  describe('POST /admin/api/merchants/:id/test-event', () => {
    it('sends one signed test.ping the merchant verifies with standardwebhooks, answers what it said, and stores nothing', async () => {
      const { shop, receiver } = await receivers.newMerchant(t, generateSigningSecret());
      receiver.respondWith(() => ({ status: 202, body: '{"pong":true}' }));
      const res = await t.admin.POST('/admin/api/merchants/{id}/test-event', { params: { path: { id: shop.merchant.id } } });
      expect(res.status).toBe(200);
      expect(receiver.received).toHaveLength(1);
      const [got] = receiver.received;
      expect(got!.verified).toBe(true);
      expect(got!.headers).toMatchObject({ 'x-webhook-event': 'test.ping', 'x-webhook-source': 'gateway', 'webhook-id': res.data!.id });
      expect(got!.body).toEqual({ event: 'test.ping', id: res.data!.id, created_at: expect.any(String), data: { merchant_id: shop.merchant.id, timestamp: expect.any(String) } });
      expect(res.data).toMatchObject({ ok: true, status_code: 202, error: null, response_excerpt: '{"pong":true}', url: receiver.url, body: got!.body });
      expect(res.data!.latency_ms).toEqual(expect.any(Number));
      const stored = await t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE merchant_id = $1`, [shop.merchant.id]);
      expect(stored[0].n).toBe(0);
    });

    it('is 404 for an unknown merchant', async () => {
      const res = await t.admin.POST('/admin/api/merchants/{id}/test-event', { params: { path: { id: 'mer_000000000000000000000000' } } });
      expect(res.status).toBe(404);
    });
  });
});

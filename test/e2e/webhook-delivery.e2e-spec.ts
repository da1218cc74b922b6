import { generateSigningSecret } from '../../src/merchants/signing-secret';
import { attemptsOf, confirmPayment, DELIVERY_ENV, deliveryOf, settled } from '../helpers/deliveries';
import { http } from '../helpers/http';
import { MerchantReceivers } from '../helpers/merchant-receivers';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

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

  it('posts the signed forward, which the merchant verifies with standardwebhooks', async () => {
    const secret = generateSigningSecret();
    const { shop, receiver } = await receivers.newMerchant(t, secret);
    const payment = await t.newPayment(shop.merchant.id);
    const intake = await confirmPayment(t, payment.id);
    await receiver.waitForCount(1);

    const [got] = receiver.received;
    const delivery = await settled(t, payment.id, 'delivered', 1);
    expect(got!.verified).toBe(true);
    expect(got!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-webhook-source': 'sandbox',
      'x-webhook-event': 'payment.confirmed',
      'x-request-id': intake.body.request_id,
      'webhook-id': delivery!.id,
      'x-webhook-signature': got!.headers['webhook-signature'],
    });
    expect(got!.body).toEqual({
      event: 'payment.confirmed',
      id: intake.body.data.event_id,
      created_at: expect.any(String),
      data: {
        id: payment.id,
        amount: 10.5,
        status: 'paid',
        externalId: payment.externalId,
        provider: 'sandbox',
        paidAt: expect.any(String),
        paidAfterClose: false,
        refundedAmount: 0,
      },
    });
    const [attempt] = await attemptsOf(t, delivery!.id);
    expect(attempt).toMatchObject({ attempt: 1, url: receiver.url, status_code: 200, error: null });
    expect(attempt!.latency_ms).toEqual(expect.any(Number));
    expect(delivery).toMatchObject({ last_status_code: 200, last_error: null, locked_until: null });
    expect(delivery!.delivered_at).toBeInstanceOf(Date);
  });

  it('signs with a plain (non-whsec_) secret keyed by its UTF-8 bytes, verifiable with format "raw"', async () => {
    const { shop, receiver } = await receivers.newMerchant(t, 'a-plain-merchant-secret-1234');
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    await receiver.waitForCount(1);
    expect(receiver.received[0]!.verified).toBe(true);
  });

  it('sends no Standard Webhooks headers to a merchant without a signing secret', async () => {
    const { shop, receiver } = await receivers.newMerchant(t);
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    await receiver.waitForCount(1);
    const { headers } = receiver.received[0]!;
    expect(headers['x-webhook-event']).toBe('payment.confirmed');
    expect(Object.keys(headers).filter((h) => h.startsWith('webhook-') || h === 'x-webhook-signature')).toEqual([]);
  });

  it('retries after a 500 with the same webhook-id, X-Request-Id and body, freshly signed', async () => {
    const { shop, receiver } = await receivers.newMerchant(t, generateSigningSecret());
    receiver.respondWith((r) => ({ status: r.seq === 1 ? 500 : 200 }));
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    await receiver.waitForCount(2);

    const [first, second] = receiver.received;
    expect(second!.verified).toBe(true);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.headers['x-request-id']).toBe(first!.headers['x-request-id']);
    expect(second!.raw).toBe(first!.raw);
    const delivery = await settled(t, payment.id, 'delivered', 2);
    expect((await attemptsOf(t, delivery!.id)).map((a) => [a.attempt, a.status_code, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 200, null],
    ]);
  });

  it('waits at least as long as the merchant’s Retry-After asks', async () => {
    const { shop, receiver } = await receivers.newMerchant(t);
    receiver.respondWith(() => ({ status: 503, headers: { 'retry-after': '120' } }));
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'pending', 1);
    const [attempt] = await attemptsOf(t, delivery!.id);
    expect(delivery!.next_attempt_at.getTime() - attempt!.attempted_at.getTime()).toBeGreaterThanOrEqual(120_000);
    expect(delivery!.last_status_code).toBe(503);
  });

  it('gives up on an attempt at DELIVERY_TIMEOUT_MS and retries', async () => {
    const { shop, receiver } = await receivers.newMerchant(t);
    receiver.respondWith((r) => (r.seq === 1 ? 'hold' : { status: 204 }));
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'delivered', 2);
    expect((await attemptsOf(t, delivery!.id)).map((a) => [a.status_code, a.error])).toEqual([
      [null, 'timeout after 2000 ms'],
      [204, null],
    ]);
  });

  it('stops at once on 410 Gone', async () => {
    const { shop, receiver } = await receivers.newMerchant(t);
    receiver.respondWith(() => ({ status: 410 }));
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'failed', 1);
    expect(delivery).toMatchObject({ last_status_code: 410, locked_until: null });
    expect(receiver.received).toHaveLength(1);
  });

  it('does not follow redirects: a 3xx is a failed attempt, and the target never hears from us', async () => {
    const { shop, receiver } = await receivers.newMerchant(t);
    receiver.respondWith((r) => (r.path === '/pix-hook' ? { status: 302, headers: { location: `${receiver.url}-moved` } } : { status: 200 }));
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'failed', 4);
    expect(receiver.received.map((r) => r.path)).toEqual(['/pix-hook', '/pix-hook', '/pix-hook', '/pix-hook']);
    expect(delivery!.last_status_code).toBe(302);
    expect(delivery!.last_error).toContain('not followed');
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

  it('queues no delivery for a merchant without a webhook_url, and records why', async () => {
    const shop = await t.newMerchant();
    const payment = await t.newPayment(shop.merchant.id);
    const res = await confirmPayment(t, payment.id);
    expect(res.body.data).toMatchObject({ applied: true, forward: 'no_webhook_url' });
    expect(await deliveryOf(t, payment.id)).toBeUndefined();
    expect((await t.dataSource.query(`SELECT forward FROM payment_events WHERE payment_id = $1`, [payment.id]))[0].forward).toBe('no_webhook_url');
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
});

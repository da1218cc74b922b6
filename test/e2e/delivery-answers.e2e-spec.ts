import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { generateSigningSecret } from '../../src/merchants/signing-secret';
import { confirmPayment, DELIVERY_ENV, settled } from '../helpers/deliveries';
import { MerchantReceivers } from '../helpers/merchant-receivers';
import { startTestApp, TestApp } from '../helpers/test-app';

/** What an operator reads of a delivery and its answers, the `retrying` filter, and the test event. */
describe('delivery answers, the retrying filter and test events (HTTP)', () => {
  let t: TestApp;
  const receivers = new MerchantReceivers();
  beforeAll(async () => {
    t = await startTestApp({ env: DELIVERY_ENV });
  });
  afterAll(async () => {
    await receivers.close();
    await t.close();
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

    it('keeps no excerpt when no answer came', async () => {
      const shop = await t.newMerchant({ webhookUrl: `http://127.0.0.1:${await closedPort()}/hook` });
      const payment = await t.newPayment(shop.merchant.id);
      await confirmPayment(t, payment.id);
      const delivery = await settled(t, payment.id, 'pending', 1);
      const res = await t.admin.GET('/admin/api/webhook-deliveries/{id}', { params: { path: { id: delivery!.id } } });
      expect(res.data!.attempt_history[0]).toMatchObject({ status_code: null, response_excerpt: null, error: expect.stringContaining('ECONNREFUSED') });
    });

    it('is 404 for an unknown delivery', async () => {
      const res = await t.admin.GET('/admin/api/webhook-deliveries/{id}', { params: { path: { id: 'dlv_000000000000000000000000' } } });
      expect(res.status).toBe(404);
      expect(res.error).toMatchObject({ code: 'NOT_FOUND' });
    });
  });

  it('status=retrying lists pending deliveries after failed attempts only', async () => {
    const shop = await t.newMerchant();
    const payment = await t.newPayment(shop.merchant.id);
    // Due in an hour: the worker leaves them alone while the spec reads them.
    const later = new Date(Date.now() + 3_600_000);
    const retrying = await t.newDelivery(payment, { attempts: 2, lastStatusCode: 503, lastError: 'HTTP 503', nextAttemptAt: later });
    await t.newDelivery(payment, { attempts: 0, nextAttemptAt: later });
    await t.newDelivery(payment, { status: 'failed', attempts: 4, nextAttemptAt: later });

    const list = (status: 'retrying' | 'pending' | 'failed') => t.admin.GET('/admin/api/webhook-deliveries', { params: { query: { status, merchant_id: shop.merchant.id } } });
    const res = await list('retrying');
    expect(res.status).toBe(200);
    expect(res.data!.items.map((d) => [d.id, d.status, d.attempts])).toEqual([[retrying.id, 'pending', 2]]);
    expect((await list('pending')).data!.items).toHaveLength(2);
    expect((await list('failed')).data!.items).toHaveLength(1);
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

    it('answers ok: false with the reason when the endpoint fails or is unreachable', async () => {
      const { shop, receiver } = await receivers.newMerchant(t);
      receiver.respondWith(() => ({ status: 500, body: 'boom' }));
      const failing = await t.admin.POST('/admin/api/merchants/{id}/test-event', { params: { path: { id: shop.merchant.id } } });
      expect(failing.data).toMatchObject({ ok: false, status_code: 500, response_excerpt: 'boom', error: null });

      const down = await t.newMerchant({ webhookUrl: `http://127.0.0.1:${await closedPort()}/hook` });
      const unreachable = await t.admin.POST('/admin/api/merchants/{id}/test-event', { params: { path: { id: down.merchant.id } } });
      expect(unreachable.data).toMatchObject({ ok: false, status_code: null, response_excerpt: null, error: expect.stringContaining('ECONNREFUSED') });

      const none = await t.newMerchant();
      const noUrl = await t.admin.POST('/admin/api/merchants/{id}/test-event', { params: { path: { id: none.merchant.id } } });
      expect(noUrl.data).toMatchObject({ ok: false, status_code: null, error: 'the merchant has no webhook_url' });
    });

    it('is 404 for an unknown merchant', async () => {
      const res = await t.admin.POST('/admin/api/merchants/{id}/test-event', { params: { path: { id: 'mer_000000000000000000000000' } } });
      expect(res.status).toBe(404);
    });
  });
});

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

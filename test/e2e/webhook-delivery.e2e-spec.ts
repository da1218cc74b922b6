import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DeliveryStore } from '../../src/deliveries/delivery-store';
import { generateSigningSecret } from '../../src/merchants/signing-secret';
import { MerchantFixture, newMerchant, newPayment } from '../helpers/factories';
import { eventually } from '../helpers/eventually';
import { http, HttpResult } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { createTestPostgresDatabase, describeOn, startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/**
 * Short waits so the whole retry schedule runs inside a test: three retries 200 ms apart (four
 * attempts), a 2 s attempt timeout (short, yet long enough for a busy test process), a fast poll.
 */
const DELIVERY_ENV = { DELIVERY_POLL_MS: '50', DELIVERY_RETRY_SCHEDULE_MS: '200,200,200', DELIVERY_TIMEOUT_MS: '2000', DELIVERY_LEASE_MS: '5000' };

/** Sends a sandbox event through the real intake (unsigned: no SANDBOX_WEBHOOK_SECRET in these apps). */
async function confirmPayment(t: TestApp, paymentId: string): Promise<HttpResult> {
  const event = { event: 'payment.confirmed', id: `evt_sbx_${randomBytes(8).toString('hex')}`, created_at: new Date().toISOString(), data: { id: paymentId, amount: 10.5, status: 'CONCLUIDA' } };
  const res = await http(t.url, 'POST', '/webhooks/sandbox', { body: event });
  expect(res.status).toBe(200);
  return res;
}


// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;
const deliveryOf = async (t: TestApp, paymentId: string): Promise<Row | undefined> => (await t.dataSource.query(`SELECT * FROM webhook_deliveries WHERE payment_id = $1`, [paymentId]))[0];
const attemptsOf = (t: TestApp, deliveryId: string): Promise<Row[]> =>
  t.dataSource.query(`SELECT attempt, url, status_code, latency_ms, error, attempted_at FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [deliveryId]);
const settled = (t: TestApp, paymentId: string, status: string, attempts: number) =>
  eventually(() => deliveryOf(t, paymentId), (d) => d?.status === status && d.attempts === attempts);

describe('webhook delivery to merchants (HTTP)', () => {
  let t: TestApp;
  const receivers: MerchantReceiver[] = [];
  beforeAll(async () => {
    t = await startTestApp({ env: DELIVERY_ENV });
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t.close();
  });

  /** A merchant whose webhook URL is a fresh receiver that verifies with `secret` (if any). */
  async function merchantWithReceiver(secret?: string): Promise<{ shop: MerchantFixture; receiver: MerchantReceiver }> {
    const receiver = await MerchantReceiver.start({ secret });
    receivers.push(receiver);
    const shop = await newMerchant(t, { webhookUrl: receiver.url, signingSecret: secret });
    return { shop, receiver };
  }

  it('posts the signed forward, which the merchant verifies with standardwebhooks', async () => {
    const secret = generateSigningSecret();
    const { shop, receiver } = await merchantWithReceiver(secret);
    const payment = await newPayment(t.dataSource, shop.merchant.id);
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
      data: { id: payment.id, amount: 10.5, status: 'paid', externalId: payment.externalId, provider: 'sandbox', paidAt: expect.any(String) },
    });
    const [attempt] = await attemptsOf(t, delivery!.id);
    expect(attempt).toMatchObject({ attempt: 1, url: receiver.url, status_code: 200, error: null });
    expect(attempt!.latency_ms).toEqual(expect.any(Number));
    expect(delivery).toMatchObject({ last_status_code: 200, last_error: null, locked_until: null });
    expect(delivery!.delivered_at).toBeInstanceOf(Date);
  });

  it('signs with a plain (non-whsec_) secret keyed by its UTF-8 bytes, verifiable with format "raw"', async () => {
    const { shop, receiver } = await merchantWithReceiver('a-plain-merchant-secret-1234');
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    await receiver.waitForCount(1);
    expect(receiver.received[0]!.verified).toBe(true);
  });

  it('sends no Standard Webhooks headers to a merchant without a signing secret', async () => {
    const { shop, receiver } = await merchantWithReceiver();
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    await receiver.waitForCount(1);
    const { headers } = receiver.received[0]!;
    expect(headers['x-webhook-event']).toBe('payment.confirmed');
    expect(Object.keys(headers).filter((h) => h.startsWith('webhook-') || h === 'x-webhook-signature')).toEqual([]);
  });

  it('retries after a 500 with the same webhook-id, X-Request-Id and body, freshly signed', async () => {
    const { shop, receiver } = await merchantWithReceiver(generateSigningSecret());
    receiver.respondWith((r) => ({ status: r.seq === 1 ? 500 : 200 }));
    const payment = await newPayment(t.dataSource, shop.merchant.id);
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
    const { shop, receiver } = await merchantWithReceiver();
    receiver.respondWith(() => ({ status: 503, headers: { 'retry-after': '120' } }));
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'pending', 1);
    const [attempt] = await attemptsOf(t, delivery!.id);
    expect(delivery!.next_attempt_at.getTime() - attempt!.attempted_at.getTime()).toBeGreaterThanOrEqual(120_000);
    expect(delivery!.last_status_code).toBe(503);
  });

  it('gives up on an attempt at DELIVERY_TIMEOUT_MS and retries', async () => {
    const { shop, receiver } = await merchantWithReceiver();
    receiver.respondWith((r) => (r.seq === 1 ? 'hold' : { status: 204 }));
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'delivered', 2);
    expect((await attemptsOf(t, delivery!.id)).map((a) => [a.status_code, a.error])).toEqual([
      [null, 'timeout after 2000 ms'],
      [204, null],
    ]);
  });

  it('stops at once on 410 Gone', async () => {
    const { shop, receiver } = await merchantWithReceiver();
    receiver.respondWith(() => ({ status: 410 }));
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'failed', 1);
    expect(delivery).toMatchObject({ last_status_code: 410, locked_until: null });
    expect(receiver.received).toHaveLength(1);
  });

  it('does not follow redirects: a 3xx is a failed attempt, and the target never hears from us', async () => {
    const { shop, receiver } = await merchantWithReceiver();
    receiver.respondWith((r) => (r.path === '/pix-hook' ? { status: 302, headers: { location: `${receiver.url}-moved` } } : { status: 200 }));
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'failed', 4);
    expect(receiver.received.map((r) => r.path)).toEqual(['/pix-hook', '/pix-hook', '/pix-hook', '/pix-hook']);
    expect(delivery!.last_status_code).toBe(302);
    expect(delivery!.last_error).toContain('not followed');
  });

  it('fails after the last scheduled attempt; redeliver sends it again and keeps the history', async () => {
    const { shop, receiver } = await merchantWithReceiver(generateSigningSecret());
    receiver.respondWith(() => ({ status: 500 }));
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    const failed = await settled(t, payment.id, 'failed', 4);
    expect(receiver.received).toHaveLength(4);

    const listed = await http(t.url, 'GET', `/admin/api/webhook-deliveries?status=failed&merchant_id=${shop.merchant.id}`, { headers: ADMIN });
    expect(listed.status).toBe(200);
    expect(listed.body.data.items).toEqual([
      expect.objectContaining({ id: failed!.id, status: 'failed', merchant_name: shop.merchant.name, event_type: 'payment.confirmed', attempts: 4, last_status_code: 500, last_error: 'HTTP 500' }),
    ]);

    receiver.respondWith(() => ({ status: 200 }));
    const redelivered = await http(t.url, 'POST', `/admin/api/webhook-deliveries/${failed!.id}/redeliver`, { headers: ADMIN });
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.data).toMatchObject({ id: failed!.id, status: 'pending', attempts: 4 });
    await receiver.waitForCount(5);
    expect(receiver.received[4]!.verified).toBe(true);
    expect(receiver.received[4]!.headers['webhook-id']).toBe(failed!.id);
    await settled(t, payment.id, 'delivered', 5);
    expect((await attemptsOf(t, failed!.id)).map((a) => a.status_code)).toEqual([500, 500, 500, 500, 200]);
  });

  it('redelivers a delivered forward too', async () => {
    const { shop, receiver } = await merchantWithReceiver();
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'delivered', 1);
    const res = await http(t.url, 'POST', `/admin/api/webhook-deliveries/${delivery!.id}/redeliver`, { headers: ADMIN });
    expect(res.status).toBe(200);
    await receiver.waitForCount(2);
    expect(receiver.received[1]!.raw).toBe(receiver.received[0]!.raw);
    await settled(t, payment.id, 'delivered', 2);
  });

  it('queues no delivery for a merchant without a webhook_url, and records why', async () => {
    const shop = await newMerchant(t);
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    const res = await confirmPayment(t, payment.id);
    expect(res.body.data).toMatchObject({ applied: true, forward: 'no_webhook_url' });
    expect(await deliveryOf(t, payment.id)).toBeUndefined();
    expect((await t.dataSource.query(`SELECT forward FROM payment_events WHERE payment_id = $1`, [payment.id]))[0].forward).toBe('no_webhook_url');
  });

  describe('admin API', () => {
    it('pages newest first with a cursor and filters by status and merchant', async () => {
      const { shop, receiver } = await merchantWithReceiver();
      receiver.respondWith(() => ({ status: 410 }));
      const payments = [await newPayment(t.dataSource, shop.merchant.id), await newPayment(t.dataSource, shop.merchant.id), await newPayment(t.dataSource, shop.merchant.id)];
      for (const p of payments) {
        await confirmPayment(t, p.id);
        await settled(t, p.id, 'failed', 1);
      }
      const page = (cursor?: string) =>
        http(t.url, 'GET', `/admin/api/webhook-deliveries?merchant_id=${shop.merchant.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, { headers: ADMIN });
      const first = await page();
      const second = await page(first.body.data.next_cursor);
      expect([...first.body.data.items, ...second.body.data.items].map((d: Row) => d.payment_id)).toEqual(payments.map((p) => p.id).reverse());
      expect(second.body.data.next_cursor).toBeNull();
      const delivered = await http(t.url, 'GET', `/admin/api/webhook-deliveries?status=delivered&merchant_id=${shop.merchant.id}`, { headers: ADMIN });
      expect(delivered.body.data.items).toEqual([]);
    });

    it('refuses a bad status filter, an unknown delivery and a missing token', async () => {
      expect((await http(t.url, 'GET', '/admin/api/webhook-deliveries?status=lost', { headers: ADMIN })).body.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      const unknown = await http(t.url, 'POST', '/admin/api/webhook-deliveries/dlv_000000000000000000000000/redeliver', { headers: ADMIN });
      expect(unknown.status).toBe(404);
      expect((await http(t.url, 'GET', '/admin/api/webhook-deliveries')).status).toBe(401);
    });
  });
});

describe('webhook delivery with WEBHOOK_ALLOW_PRIVATE_URLS=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ...DELIVERY_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
  });
  afterAll(() => t.close());

  // The URLs are written straight to the database, as if they had passed the save-time check and
  // their host had been re-pointed since (DNS rebinding): the delivery-time check must catch them.
  it.each([
    ['a host name that now resolves to loopback', 'https://localhost/pix-hook', '"localhost" resolves to'],
    ['a loopback address', 'https://127.0.0.1/pix-hook', '127.0.0.1 is loopback'],
    ['the cloud metadata address', 'https://169.254.169.254/latest', '169.254.169.254 is linkLocal'],
  ])('refuses %s before connecting, and keeps retrying on schedule', async (_label, url, reason) => {
    const shop = await newMerchant(t, { webhookUrl: url });
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'failed', 4);
    const attempts = await attemptsOf(t, delivery!.id);
    expect(attempts).toHaveLength(4);
    for (const attempt of attempts) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toContain('webhook URL refused');
      expect(attempt.error).toContain(reason);
    }
  });
});

describe('delivery leases (the worker off, DeliveryStore driven by hand)', () => {
  let t: TestApp;
  let store: DeliveryStore;
  beforeAll(async () => {
    t = await startTestApp({ env: { ...DELIVERY_ENV, DELIVERY_POLL_MS: '0' } });
    store = t.app.get(DeliveryStore);
  });
  afterAll(() => t.close());

  /** A queued delivery, made by the real intake; nothing sends it while the worker is off. */
  async function queuedDelivery(): Promise<string> {
    const shop = await newMerchant(t, { webhookUrl: 'http://127.0.0.1:9/pix-hook' });
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    return (await deliveryOf(t, payment.id))!.id;
  }
  const claimOne = async (id: string, leaseMs: number) => (await store.claimDue(100, leaseMs)).find((c) => c.id === id);
  const delivered = { statusCode: 200, error: null, latencyMs: 5 };

  it('leases a claimed delivery away from other claims until the lease lapses', async () => {
    const id = await queuedDelivery();
    expect(await claimOne(id, 60_000)).toBeDefined();
    expect(await claimOne(id, 60_000)).toBeUndefined();
    await t.dataSource.query(`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await claimOne(id, 60_000)).toMatchObject({ id, attempts: 0, provider: 'sandbox', eventType: 'payment.confirmed' });
  });

  it('lets only the current lease holder move the delivery on; a stale holder only adds its attempt to the history', async () => {
    const id = await queuedDelivery();
    const stale = (await claimOne(id, 60_000))!;
    await t.dataSource.query(`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE id = $1`, [id]);
    const current = (await claimOne(id, 60_000))!;

    const failedAttempt = { status: 'pending' as const, retryInMs: 60_000, error: 'HTTP 500' };
    const updated = await store.record([
      { claim: current, attempt: 1, attemptedAt: new Date(), url: 'u', result: { ...delivered, statusCode: 500 }, outcome: failedAttempt },
      { claim: stale, attempt: 1, attemptedAt: new Date(), url: 'u', result: delivered, outcome: { status: 'delivered', retryInMs: null, error: null } },
    ]);
    expect([...updated]).toEqual([id]);

    expect(await t.dataSource.query(`SELECT status, attempts, last_status_code, locked_until FROM webhook_deliveries WHERE id = $1`, [id])).toEqual([
      { status: 'pending', attempts: 1, last_status_code: 500, locked_until: null },
    ]);
    expect((await attemptsOf(t, id)).map((a) => a.status_code).sort()).toEqual([200, 500]);
  });
});

describeOn('postgres', 'two processes share one database')('two gateway processes on one PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> };
  let a: TestApp;
  let b: TestApp;
  let receiver: MerchantReceiver;
  beforeAll(async () => {
    db = await createTestPostgresDatabase();
    // Both apps, the receiver and the test share one event loop here; the default 10 s timeout keeps
    // a busy loop from turning an answered attempt into a timeout (and a legitimate second send).
    const env = { ...DELIVERY_ENV, DELIVERY_TIMEOUT_MS: '10000', DELIVERY_LEASE_MS: '40000', DATABASE_URL: db.url };
    [a, b] = await Promise.all([startTestApp({ env }), startTestApp({ env })]);
    receiver = await MerchantReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await db.drop();
  });

  it('delivers each attempt once, with both workers claiming side by side', async () => {
    // The first attempt of every third event fails, so retries are claimed too, by either process.
    const seen = new Set<string>();
    receiver.respondWith((r) => {
      const first = !seen.has(r.body.id);
      seen.add(r.body.id);
      return { status: first && seen.size % 3 === 0 ? 500 : 200 };
    });
    const shop = await newMerchant(a, { webhookUrl: receiver.url });
    const payments = await Promise.all(Array.from({ length: 60 }, () => newPayment(a.dataSource, shop.merchant.id)));
    await Promise.all(payments.map((p, i) => confirmPayment(i % 2 ? a : b, p.id)));
    await eventually(
      () => a.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`),
      (rows) => rows[0].n === payments.length,
      30_000,
    );
    // Closing both waits for attempts still in flight: a duplicate could not arrive after the count.
    await Promise.all([a.close(), b.close()]);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const { rows: attempts } = await client.query(`SELECT delivery_id, attempt FROM webhook_delivery_attempts`);
    await client.end();

    // Two processes sending one attempt would both record it: one row per (delivery, attempt) proves each was sent once.
    expect(receiver.received).toHaveLength(attempts.length);
    expect(new Set(attempts.map((x) => `${x.delivery_id}/${x.attempt}`)).size).toBe(attempts.length);
    expect(receiver.received.filter((r) => r.status === 500)).toHaveLength(payments.length / 3);
    const successes = new Map<string, number>();
    for (const r of receiver.received.filter((x) => x.status === 200)) successes.set(r.body.id, (successes.get(r.body.id) ?? 0) + 1);
    expect(successes.size).toBe(payments.length);
    expect([...successes.values()].every((n) => n === 1)).toBe(true);
  });
});

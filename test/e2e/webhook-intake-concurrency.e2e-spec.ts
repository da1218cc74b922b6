import { randomBytes } from 'node:crypto';
import { MerchantFixture } from '../helpers/factories';
import { http } from '../helpers/http';
import { startTestApp, TestApp, testDatabase } from '../helpers/test-app';

/**
 * Events racing each other. On the embedded database everything is serialised by its one
 * connection; on PostgreSQL the transactions really overlap, which is where the row lock and
 * ON CONFLICT DO NOTHING have to hold.
 */
describe(`webhook intake under concurrency (${testDatabase()} database)`, () => {
  let t: TestApp;
  let shop: MerchantFixture;
  beforeAll(async () => {
    t = await startTestApp();
    shop = await t.newMerchant({ webhookUrl: 'http://127.0.0.1:9/pix-hook' });
  });
  afterAll(() => t.close());

  const event = (paymentRef: string, type = 'payment.confirmed') => ({ event: type, id: `evt_sbx_${randomBytes(8).toString('hex')}`, data: { id: paymentRef, amount: 10.5 } });
  const postAll = (bodies: unknown[]) => Promise.all(bodies.map((body) => http(t.url, 'POST', '/webhooks/sandbox', { body })));
  const outcomes = async (paymentId: string) =>
    (await t.dataSource.query(`SELECT outcome FROM payment_events WHERE payment_id = $1 ORDER BY created_at`, [paymentId])).map((r: { outcome: string }) => r.outcome);
  const deliveries = async (paymentId: string) =>
    (await t.dataSource.query(`SELECT event_type FROM webhook_deliveries WHERE payment_id = $1`, [paymentId])).map((r: { event_type: string }) => r.event_type);

  it('applies one of 20 identical events posted at once, and queues one forward', async () => {
    const payment = await t.newPayment(shop.merchant.id);
    const body = event(payment.id);
    const answers = await postAll(Array(20).fill(body));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    expect(await outcomes(payment.id)).toEqual(['applied']);
    expect(await deliveries(payment.id)).toEqual(['payment.confirmed']);
  });

  it('stores one of 20 identical events for an unknown payment (no row lock to queue behind)', async () => {
    const body = event(`sbx_${randomBytes(6).toString('hex')}`);
    const answers = await postAll(Array(20).fill(body));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((r) => r.body.data.duplicate === false)).toEqual([
      expect.objectContaining({ body: expect.objectContaining({ data: expect.objectContaining({ matched: false }) }) }),
    ]);
    expect(await t.dataSource.query(`SELECT 1 FROM payment_events WHERE provider_event_id = $1`, [body.id])).toHaveLength(1);
  });

  it('applies one of 20 different confirmations racing for one payment; the rest are history', async () => {
    const payment = await t.newPayment(shop.merchant.id);
    const answers = await postAll(Array.from({ length: 20 }, () => event(payment.id)));
    expect(answers.filter((r) => r.body.data.applied === true)).toHaveLength(1);
    expect(await outcomes(payment.id)).toEqual(['applied', ...Array(19).fill('ignored')]);
    expect(await deliveries(payment.id)).toHaveLength(1);
  });

  it('lets exactly one of a confirmation and an expiry racing win, and forwards only the winner', async () => {
    const payment = await t.newPayment(shop.merchant.id);
    const answers = await postAll([event(payment.id, 'payment.confirmed'), event(payment.id, 'payment.expired')]);
    const winners = answers.filter((r) => r.body.data.applied === true);
    expect(winners).toHaveLength(1);
    const [{ status }] = await t.dataSource.query(`SELECT status FROM payments WHERE id = $1`, [payment.id]);
    expect(status).toBe(winners[0]!.body.data.status);
    expect(await deliveries(payment.id)).toEqual([status === 'paid' ? 'payment.confirmed' : 'payment.expired']);
  });
});

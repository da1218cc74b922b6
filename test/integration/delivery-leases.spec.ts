import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { attemptsOf, confirmPayment, DELIVERY_ENV, deliveryOf } from '../helpers/deliveries';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * The delivery queue's lease and fencing rules, against the database: no HTTP semantics are
 * involved (the intake only queues the delivery the repository then claims by hand), so this lives with
 * the integration specs rather than the e2e ones.
 */
describe('delivery leases (the worker off, WebhookDeliveryRepository driven by hand)', () => {
  let t: TestApp;
  let deliveries: WebhookDeliveryRepository;
  beforeAll(async () => {
    t = await startTestApp({ env: { ...DELIVERY_ENV, DELIVERY_POLL_MS: '0' } });
    deliveries = t.app.get(WebhookDeliveryRepository);
  });
  afterAll(() => t.close());

  /** A queued delivery, made by the real intake; nothing sends it while the worker is off. */
  async function queuedDelivery(): Promise<string> {
    const shop = await t.newMerchant({ webhookUrl: 'http://127.0.0.1:9/pix-hook' });
    const payment = await t.newPayment(shop.merchant.id);
    await confirmPayment(t, payment.id);
    return (await deliveryOf(t, payment.id))!.id;
  }
  const claimOne = async (id: string, leaseMs: number) => (await deliveries.claimDueSkipLocked(100, leaseMs, new Date())).find((c) => c.id === id);
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
    const updated = await deliveries.recordAttemptsIfLeaseHeld(
      [
        { claim: current, attempt: 1, attemptedAt: new Date(), url: 'u', result: { ...delivered, statusCode: 500 }, outcome: failedAttempt },
        { claim: stale, attempt: 1, attemptedAt: new Date(), url: 'u', result: delivered, outcome: { status: 'delivered', retryInMs: null, error: null } },
      ],
      new Date(),
    );
    expect([...updated]).toEqual([id]);

    expect(await t.dataSource.query(`SELECT status, attempts, last_status_code, locked_until FROM webhook_deliveries WHERE id = $1`, [id])).toEqual([
      { status: 'pending', attempts: 1, last_status_code: 500, locked_until: null },
    ]);
    expect((await attemptsOf(t, id)).map((a) => a.status_code).sort()).toEqual([200, 500]);
  });
});

import { randomBytes } from 'node:crypto';
import { RETRY_JITTER } from '../../src/domain/retry-schedule';
import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { eventually } from '../helpers/eventually';
import { FakeClock } from '../helpers/fake-clock';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp, testDatabase } from '../helpers/test-app';

/** Two retries a minute apart (three attempts): far longer than the test runs, so only the clock can make them due. */
const RETRY_MS = 60_000;

describe(`delivery retries on the gateway clock (${testDatabase()} database)`, () => {
  const db = testDatabase();
  let t: TestApp;
  let failing: MerchantReceiver;
  let healthy: MerchantReceiver;
  // Months away from the real time, so a due-ness judged by any other clock shows.
  const clock = new FakeClock();
  beforeAll(async () => {
    [failing, healthy] = await Promise.all([MerchantReceiver.start(), MerchantReceiver.start()]);
    failing.respondWith(() => ({ status: 500 }));
    t = await startTestApp({ db, clock, env: { DELIVERY_POLL_MS: '50', DELIVERY_RETRY_SCHEDULE_MS: `${RETRY_MS},${RETRY_MS}` } });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([failing?.close(), healthy?.close()]);
  });

  /** A payment of a merchant at `url`, confirmed through the real intake, which queues its forward. */
  async function confirmedPayment(url: string): Promise<string> {
    const shop = await t.newMerchant({ webhookUrl: url });
    const payment = await t.newPayment(shop.merchant.id);
    const event = { event: 'payment.confirmed', id: `evt_sbx_${randomBytes(8).toString('hex')}`, created_at: new Date().toISOString(), data: { id: payment.id, amount: 10.5 } };
    expect((await http(t.url, 'POST', '/webhooks/sandbox', { body: event })).status).toBe(200);
    return payment.id;
  }
  const settled = (paymentId: string, status: string, attempts: number) =>
    eventually(
      async () => (await t.app.get(WebhookDeliveryRepository).listForPayment(paymentId))[0],
      (d) => d?.status === status && d.attempts === attempts,
    ).then((d) => d!);

  it('retries a failing delivery when the clock reaches each retry, not before, and fails it after the last', async () => {
    const paymentId = await confirmedPayment(failing.url);
    const first = await settled(paymentId, 'pending', 1);
    const wait = first.nextAttemptAt.getTime() - clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(RETRY_MS * (1 - RETRY_JITTER));
    expect(wait).toBeLessThanOrEqual(RETRY_MS * (1 + RETRY_JITTER));

    // A millisecond before the retry: a forward queued now goes out (so the worker has claimed since), this one waits.
    clock.set(new Date(first.nextAttemptAt.getTime() - 1));
    await settled(await confirmedPayment(healthy.url), 'delivered', 1);
    expect(await settled(paymentId, 'pending', 1)).toMatchObject({ lockedUntil: null });
    expect(failing.received).toHaveLength(1);

    clock.set(first.nextAttemptAt);
    const second = await settled(paymentId, 'pending', 2);
    clock.set(second.nextAttemptAt);
    await settled(paymentId, 'failed', 3);
    expect(failing.received).toHaveLength(3);
  });
});

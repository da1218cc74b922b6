import { DeliveryWorker } from '../../src/deliveries/delivery-worker';
import { DeliverySender } from '../../src/deliveries/delivery-sender';
import { RETRY_JITTER } from '../../src/domain/retry-schedule';
import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { WebhookUrlPolicy } from '../../src/common/net/webhook-url-policy';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { TransportModule } from '../../src/providers/transport/transport.module';
import { eventually } from '../helpers/eventually';
import { FakeClock } from '../../src/testing/fake-clock';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { testDatabase } from '../helpers/test-env';

/** Two retries a minute apart (three attempts): far longer than the test runs, so only the clock can make them due. */
const RETRY_MS = 60_000;

/** The delivery worker, polling as in the app, against real merchant endpoints; its queue is written by the factories. */
describe(`delivery retries on the gateway clock (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let deliveries: WebhookDeliveryRepository;
  let failing: MerchantReceiver;
  let healthy: MerchantReceiver;
  // Months away from the real time, so a due-ness judged by any other clock shows.
  const clock = new FakeClock();
  beforeAll(async () => {
    [failing, healthy] = await Promise.all([MerchantReceiver.start(), MerchantReceiver.start()]);
    failing.respondWith(() => ({ status: 500 }));
    ctx = await newMediumContext({ clock, env: { DELIVERY_POLL_MS: '50', DELIVERY_RETRY_SCHEDULE_MS: `${RETRY_MS},${RETRY_MS}` } });
    const worker = await ctx.module([DeliveryWorker, DeliverySender, WebhookDeliveryRepository, WebhookUrlPolicy, GatewayMetrics], [TransportModule]);
    deliveries = worker.get(WebhookDeliveryRepository);
    worker.get(DeliveryWorker).onApplicationBootstrap(); // starts the poll, as the app's bootstrap does; ctx.close() drains it
  });
  afterAll(async () => {
    await ctx?.close();
    await Promise.all([failing?.close(), healthy?.close()]);
  });

  /** A payment of a merchant at `url` whose confirmation is queued for forwarding, due by the gateway clock now. */
  async function confirmedPayment(url: string): Promise<string> {
    const shop = await ctx.newMerchant({ webhookUrl: url });
    const payment = await ctx.newPayment(shop.merchant.id, { status: 'paid' });
    await ctx.newDelivery(payment, { nextAttemptAt: clock.now() });
    return payment.id;
  }
  const settled = (paymentId: string, status: string, attempts: number) =>
    eventually(
      async () => (await deliveries.listForPayment(paymentId))[0],
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

import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { attemptsOf } from '../helpers/deliveries';
import { MediumContext, newMediumContext } from '../helpers/medium';

/** The delivery queue's lease and fencing rules, against the database: WebhookDeliveryRepository driven by hand, no worker. */
describe('delivery leases (WebhookDeliveryRepository driven by hand)', () => {
  let ctx: MediumContext;
  let deliveries: WebhookDeliveryRepository;
  beforeAll(async () => {
    ctx = await newMediumContext();
    deliveries = await ctx.get(WebhookDeliveryRepository);
  });
  afterAll(() => ctx.close());

  /** A queued forward of a sandbox payment.confirmed, due now. */
  async function queuedDelivery(): Promise<string> {
    const shop = await ctx.newMerchant({ webhookUrl: 'http://127.0.0.1:9/pix-hook' });
    const payment = await ctx.newPayment(shop.merchant.id);
    return (await ctx.newDelivery(payment)).id;
  }
  const claimOne = async (id: string, leaseMs: number) => (await deliveries.claimDueSkipLocked(100, leaseMs, new Date())).find((c) => c.id === id);
  const lapseLease = (id: string) => ctx.dataSource.query(`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE id = $1`, [id]);
  const delivered = { statusCode: 200, error: null, latencyMs: 5 };

  it('leases a claimed delivery away from other claims until the lease lapses', async () => {
    const id = await queuedDelivery();
    expect(await claimOne(id, 60_000)).toBeDefined();
    expect(await claimOne(id, 60_000)).toBeUndefined();
    await lapseLease(id);
    expect(await claimOne(id, 60_000)).toMatchObject({ id, attempts: 0, provider: 'sandbox', eventType: 'payment.confirmed' });
  });

  it('lets only the current lease holder move the delivery on; a stale holder only adds its attempt to the history', async () => {
    const id = await queuedDelivery();
    const stale = (await claimOne(id, 60_000))!;
    await lapseLease(id);
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

    expect(await ctx.dataSource.query(`SELECT status, attempts, last_status_code, locked_until FROM webhook_deliveries WHERE id = $1`, [id])).toEqual([
      { status: 'pending', attempts: 1, last_status_code: 500, locked_until: null },
    ]);
    expect((await attemptsOf(ctx, id)).map((a) => a.status_code).sort()).toEqual([200, 500]);
  });
});

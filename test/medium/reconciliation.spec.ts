import { EXPIRY_GRACE_MS, ReconciliationService } from '../../src/payments/payment-reconciliation.service';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { PaymentRepository } from '../../src/payments/payment.repository';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProvidersModule } from '../../src/providers/providers.module';
import { RunningSandbox, startSandboxServer } from '../../src/sandbox-psp/standalone';
import { PaymentEventRepository } from '../../src/payments/lifecycle/payment-event.repository';
import { PaymentEventsService } from '../../src/payments/lifecycle/payment-events.service';
import { EventWriter } from '../../src/payments/lifecycle/event-writer';
import { RefundEventsService } from '../../src/payments/refunds/refund-events.service';
import { RefundRepository } from '../../src/payments/refunds/refund.repository';
import { Refund } from '../../src/payments/refunds/refund.entity';
import { MerchantFixture } from '../helpers/factories';
import { FakeClock } from '../../src/testing/fake-clock';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { SandboxCharges } from '../helpers/sandbox-charges';
import { testDatabase } from '../helpers/test-env';

/**
 * ReconciliationService with its real collaborators (the sandbox adapter, the apply service that
 * intake shares), reading payments back from the simulated PSP run alone on a port of its own, as a
 * deployment reaches a PSP. Its races with the intake over HTTP are in test/e2e/reconciliation-intake.e2e-spec.ts.
 */
describe(`reconciliation (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let psp: RunningSandbox;
  let charges: SandboxCharges;
  let shop: MerchantFixture;
  let reconciliation: ReconciliationService;
  const clock = new FakeClock(new Date());
  beforeAll(async () => {
    psp = await startSandboxServer({ logLevel: 'silent' });
    charges = new SandboxCharges(psp.url, { authorization: `Bearer ${psp.apiToken}` });
    ctx = await newMediumContext({ clock, env: { SANDBOX_BASE_URL: psp.url, SANDBOX_API_TOKEN: psp.apiToken } });
    shop = await ctx.newMerchant({ webhookUrl: 'http://127.0.0.1:9/pix-hook' });
    reconciliation = await ctx.get(
      ReconciliationService,
      [
        PaymentRepository,
        AccountResolver,
        AccountBreakers,
        ProviderAccountRepository,
        MerchantProviderAccountRepository,
        GatewayMetrics,
        PaymentEventsService,
        EventWriter,
        RefundEventsService,
        RefundRepository,
        PaymentEventRepository,
        WebhookDeliveryRepository,
      ],
      [ProvidersModule],
    );
  });
  afterAll(async () => {
    await ctx?.close();
    await psp?.close();
  });

  /** A moment at which every payment created so far is old enough to be read back. */
  const later = () => new Date(Date.now() + (ctx.config.reconcileAfterSeconds + 1) * 1000);
  /** A reconciliation run with the gateway's clock at `at`. */
  const runAt = (at: Date) => {
    clock.set(at);
    return reconciliation.runOnce();
  };
  const sandbox = (method: string, path: string, body?: unknown) => charges.call(method, path, body);
  const lostCharge = (options: { expiresIn?: number; expiresAt?: Date; createdAt?: Date } = {}) => charges.lostCharge(ctx, shop.merchant.id, options);
  const status = async (id: string) => (await ctx.dataSource.query(`SELECT status FROM payments WHERE id = $1`, [id]))[0].status;
  const events = (id: string) =>
    ctx.dataSource.query(`SELECT type, source, outcome, forward, provider_event_id FROM payment_events WHERE payment_id = $1 ORDER BY created_at`, [id]);
  const deliveries = (id: string) => ctx.dataSource.query(`SELECT event_type, body FROM webhook_deliveries WHERE payment_id = $1 ORDER BY created_at, id`, [id]);

  it('confirms a payment whose confirmation webhook was lost, and forwards it once', async () => {
    const { payment, chargeId } = await lostCharge();
    const simulated = await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    expect(simulated.body.delivered).toBe(false);
    expect(await status(payment.id)).toBe('pending');

    await runAt(later());
    expect(await status(payment.id)).toBe('paid');
    expect(await events(payment.id)).toEqual([
      {
        type: 'payment.confirmed',
        source: 'reconciliation',
        outcome: 'applied',
        forward: 'queued',
        provider_event_id: expect.stringMatching(new RegExp(`^reconcile:${payment.id}:paid:[A-Za-z0-9_-]{43}$`)),
      },
    ]);
    expect(await deliveries(payment.id)).toEqual([
      expect.objectContaining({ event_type: 'payment.confirmed', body: expect.objectContaining({ data: expect.objectContaining({ status: 'paid' }) }) }),
    ]);
  });

  it('leaves a payment alone until it is old enough', async () => {
    const { payment, chargeId } = await lostCharge();
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    await runAt(new Date());
    expect(await status(payment.id)).toBe('pending');
    await runAt(later());
    expect(await status(payment.id)).toBe('paid');
  });

  it('expires a payment the provider reports expired, and forwards payment.expired', async () => {
    const { payment, chargeId } = await lostCharge();
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.expired' });
    await runAt(later());
    expect(await status(payment.id)).toBe('expired');
    expect(await deliveries(payment.id)).toEqual([expect.objectContaining({ event_type: 'payment.expired', body: expect.objectContaining({ event: 'payment.expired' }) })]);
  });

  it('expires a charge past its expires_at that the provider still calls pending', async () => {
    const { payment } = await lostCharge({ expiresAt: new Date(Date.now() - 10 * 60_000) });
    await runAt(new Date()); // past expiry: due at once, however young the payment is
    expect(await status(payment.id)).toBe('expired');
    expect(await events(payment.id)).toEqual([expect.objectContaining({ type: 'payment.expired', source: 'reconciliation', outcome: 'applied', forward: 'queued' })]);
    const [{ payload }] = await ctx.dataSource.query(`SELECT payload FROM payment_events WHERE payment_id = $1`, [payment.id]);
    expect(payload).toMatchObject({ charge: { status: 'pending' }, expiredByGateway: true });
  });

  it('takes a payment once the clock reaches RECONCILE_AFTER_SECONDS past its creation, and not a millisecond before', async () => {
    const createdAt = new Date();
    const { payment, chargeId } = await lostCharge({ createdAt });
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    const due = createdAt.getTime() + ctx.config.reconcileAfterSeconds * 1000;
    await runAt(new Date(due - 1));
    expect(await status(payment.id)).toBe('pending');
    await runAt(new Date(due));
    expect(await status(payment.id)).toBe('paid');
  });

  it('expires a young payment the provider calls pending once the clock passes its expiry plus the grace, and not before', async () => {
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + 1000);
    const due = expiresAt.getTime() + EXPIRY_GRACE_MS;
    expect(due).toBeLessThan(createdAt.getTime() + ctx.config.reconcileAfterSeconds * 1000); // still too young to be taken by age
    const { payment } = await lostCharge({ createdAt, expiresAt });
    await runAt(new Date(due - 1));
    expect(await status(payment.id)).toBe('pending');
    await runAt(new Date(due));
    expect(await status(payment.id)).toBe('expired');
    const [{ payload }] = await ctx.dataSource.query(`SELECT payload FROM payment_events WHERE payment_id = $1`, [payment.id]);
    expect(payload).toMatchObject({ charge: { status: 'pending' }, expiredByGateway: true });
  });

  it('is idempotent: later runs, and two runs at once, apply each change once', async () => {
    const lost = await Promise.all([lostCharge(), lostCharge(), lostCharge()]);
    for (const { chargeId } of lost) await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    const at = later();
    const [a, b] = await Promise.all([runAt(at), runAt(at)]);
    expect(a.checked + b.checked).toBe(lost.length); // each payment claimed by one run only
    await runAt(new Date(at.getTime() + 3600_000));
    for (const { payment } of lost) {
      expect(await status(payment.id)).toBe('paid');
      expect(await events(payment.id)).toHaveLength(1);
      expect(await deliveries(payment.id)).toHaveLength(1);
    }
  });

  it('confirms then refunds a payment whose two webhooks were both lost', async () => {
    const { payment, chargeId } = await lostCharge();
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.refunded' });
    await runAt(later());
    expect(await status(payment.id)).toBe('refunded');
    expect((await events(payment.id)).map((e: { type: string }) => e.type)).toEqual(['payment.confirmed', 'refund.succeeded', 'payment.refunded']);
    // The PSP returned the money without the gateway asking: a refund of the whole amount, made at the PSP.
    expect(await ctx.dataSource.getRepository(Refund).findBy({ paymentId: payment.id })).toEqual([
      expect.objectContaining({ origin: 'psp', status: 'succeeded', amountCents: payment.amountCents }),
    ]);
    expect((await deliveries(payment.id)).map((d: { event_type: string }) => d.event_type)).toEqual(['payment.confirmed', 'refund.succeeded', 'payment.refunded']);
  });

  it('survives a failing provider and retries on the next run', async () => {
    const { payment, chargeId } = await lostCharge();
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    await sandbox('POST', '/_control/failures', { mode: 'http_503', count: 1000, operation: 'get' });
    try {
      const failed = await runAt(later());
      expect(failed.failed).toBeGreaterThan(0);
      expect(await status(payment.id)).toBe('pending');
    } finally {
      await sandbox('DELETE', '/_control/failures');
    }
    await runAt(later());
    expect(await status(payment.id)).toBe('paid');
  });

  it('keeps going when one payment cannot be applied: the others are reconciled, and the run reports it', async () => {
    const broken = await lostCharge();
    const fine = await Promise.all([lostCharge(), lostCharge(), lostCharge(), lostCharge(), lostCharge()]);
    for (const { chargeId } of [broken, ...fine]) await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    // A database fault on this one payment's event, whatever the cause.
    await ctx.dataSource.query(`CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await ctx.dataSource.query(
      `CREATE TRIGGER refuse_event BEFORE INSERT ON payment_events FOR EACH ROW WHEN (NEW.payment_id = '${broken.payment.id}') EXECUTE FUNCTION refuse_event()`,
    );
    try {
      const summary = await runAt(later());
      expect(summary.failed).toBeGreaterThanOrEqual(1);
      for (const { payment } of fine) expect(await status(payment.id)).toBe('paid');
      expect(await status(broken.payment.id)).toBe('pending');
    } finally {
      await ctx.dataSource.query(`DROP TRIGGER refuse_event ON payment_events`);
      await ctx.dataSource.query(`DROP FUNCTION refuse_event()`);
    }
    await runAt(new Date(later().getTime() + (ctx.config.reconcileAfterSeconds + 1) * 1000));
    expect(await status(broken.payment.id)).toBe('paid');
  });
});

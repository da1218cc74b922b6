import { AppError } from '../../src/common/errors/app-error';
import { ErrorCode } from '../../src/common/errors/error-codes';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { Payment } from '../../src/payments/payment.entity';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProvidersModule } from '../../src/providers/providers.module';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { RunningSandbox, startSandboxServer } from '../../src/sandbox-psp/standalone';
import type { InvariantCheckView, InvariantMismatchView } from '../../src/payments/invariant/dto/invariant-check.view';
import { InvariantCheckRepository } from '../../src/payments/invariant/invariant-check.repository';
import { INVARIANT_LEASE_MS, MoneyInvariantService } from '../../src/payments/invariant/money-invariant.service';
import { PaymentMoneyRepository } from '../../src/payments/invariant/payment-money.repository';
import { FakeClock } from '../../src/testing/fake-clock';
import { eventually } from '../helpers/eventually';
import { MerchantFixture } from '../helpers/factories';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { SandboxCharges } from '../helpers/sandbox-charges';
import { testDatabase } from '../helpers/test-env';

/**
 * The money invariant check (MoneyInvariantService) against a real database and the simulated PSP
 * run alone on a port of its own, reached over HTTP through the sandbox adapter as a deployment
 * reaches a PSP. Each case makes the PSP and the gateway agree or disagree on purpose, the way a
 * lost callback or a bookkeeping fault would, and reads what the run recorded. Runs in one spec
 * file share a database, so each case looks only at the lines of its own payments.
 */
describe(`money invariant check (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let psp: RunningSandbox;
  let charges: SandboxCharges;
  let shop: MerchantFixture;
  let service: MoneyInvariantService;
  let metrics: GatewayMetrics;
  // 12:00 UTC: past INVARIANT_CHECK_HOUR (6 by default), so a daily run is due.
  const clock = new FakeClock(`${new Date().toISOString().slice(0, 10)}T12:00:00.000Z`);

  /** The service and its metrics, as one gateway process on the database has them. */
  async function newProcess(): Promise<{ service: MoneyInvariantService; metrics: GatewayMetrics }> {
    const moduleRef = await ctx.module(
      [
        MoneyInvariantService,
        InvariantCheckRepository,
        PaymentMoneyRepository,
        AccountResolver,
        AccountBreakers,
        ProviderAccountRepository,
        MerchantProviderAccountRepository,
        GatewayMetrics,
      ],
      [ProvidersModule],
    );
    return { service: moduleRef.get(MoneyInvariantService), metrics: moduleRef.get(GatewayMetrics) };
  }
  /** The service of another gateway process on the same database. */
  const newService = async () => (await newProcess()).service;

  beforeAll(async () => {
    psp = await startSandboxServer({ logLevel: 'silent' });
    charges = new SandboxCharges(psp.url, { authorization: `Bearer ${psp.apiToken}` });
    ctx = await newMediumContext({ clock, env: { SANDBOX_BASE_URL: psp.url, SANDBOX_API_TOKEN: psp.apiToken, UPSTREAM_TIMEOUT_MS: '1500' } });
    shop = await ctx.newMerchant();
    ({ service, metrics } = await newProcess());
  });
  afterAll(async () => {
    await ctx?.close();
    await psp?.close();
  });
  afterEach(() => charges.call('DELETE', '/_control/failures'));

  const sandbox = (method: string, path: string, body?: unknown) => charges.call(method, path, body);
  const setPayment = (id: string, change: Partial<Payment>) => ctx.dataSource.getRepository(Payment).update(id, change);

  /** A charge the PSP holds paid (its callback lost), and the gateway's payment for it, as the gateway recorded it. */
  async function paidCharge(gateway: Partial<Payment> = { status: 'paid', paidAmountCents: 1050 }): Promise<{ payment: Payment; chargeId: string }> {
    const { payment, chargeId } = await charges.lostCharge(ctx, shop.merchant.id);
    expect((await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' })).status).toBe(202);
    await setPayment(payment.id, { ...gateway, paidAt: new Date() });
    return { payment: { ...payment, ...gateway }, chargeId };
  }

  /** Money going back at the PSP's portal; the gateway is not told (the callback goes nowhere). Answers the PSP's refund id. */
  async function refundAtPsp(chargeId: string, amount: string): Promise<string> {
    const made = await charges.refundOutside(chargeId, 'portal', amount);
    expect(made.status).toBe(201);
    return made.body.refund.id as string;
  }

  /** A run started as an operator starts one, carried to its end. */
  async function run(by: MoneyInvariantService = service): Promise<InvariantCheckView> {
    const started = await by.start();
    expect(started).toMatchObject({ status: 'running', trigger: 'operator', lines: [] });
    await by.whenIdle();
    const latest = await by.latest();
    expect(latest.id).toBe(started.id);
    return latest;
  }
  const linesOf = (check: InvariantCheckView, ...of: Payment[]): InvariantMismatchView[] => check.lines.filter((line) => of.some((payment) => payment.id === line.payment_id));

  it('answers NOT_FOUND before the first run', async () => {
    await expect(service.latest()).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND });
  });

  it('finds nothing where the PSP and the gateway agree: paid, part refunded at the PSP and recorded, cancelled on both sides', async () => {
    const paid = await paidCharge();
    const refunded = await paidCharge({ status: 'partially_refunded', paidAmountCents: 1050 });
    const pspRefundId = await refundAtPsp(refunded.chargeId, '3.00');
    await ctx.newRefund(refunded.payment, { origin: 'psp', status: 'succeeded', amountCents: 300, providerRefundId: pspRefundId, settledAt: new Date() });
    const cancelled = await charges.lostCharge(ctx, shop.merchant.id);
    await sandbox('POST', `/charges/${cancelled.chargeId}/simulate`, { event: 'payment.cancelled' });
    await setPayment(cancelled.payment.id, { status: 'cancelled' });

    const check = await run();
    expect(check).toMatchObject({ status: 'completed', error: null, failed: 0 });
    expect(check.checked).toBeGreaterThanOrEqual(3);
    expect(linesOf(check, paid.payment, refunded.payment, cancelled.payment)).toEqual([]);
  });

  it('reports a refund the PSP made that the gateway does not know', async () => {
    const { payment, chargeId } = await paidCharge();
    await refundAtPsp(chargeId, '3.00');
    const check = await run();
    expect(linesOf(check, payment)).toEqual([
      expect.objectContaining({
        payment_id: payment.id,
        merchant_id: shop.merchant.id,
        provider: 'sandbox',
        field: 'returned',
        gateway_status: 'paid',
        gateway_amount: 0,
        psp_amount: 3,
      }),
    ]);
    expect(check.mismatches).toBeGreaterThanOrEqual(1);
  });

  it('reports a charge the PSP holds paid that the gateway holds cancelled', async () => {
    const { payment } = await paidCharge({ status: 'cancelled', paidAmountCents: null });
    const check = await run();
    expect(linesOf(check, payment)).toEqual([
      expect.objectContaining({
        field: 'received',
        gateway_status: 'cancelled',
        psp_status: 'paid',
        gateway_amount: 0,
        psp_amount: 10.5,
        note: expect.stringContaining('cancelled'),
      }),
    ]);
  });

  it('reports a refund the gateway holds succeeded that the PSP does not list', async () => {
    const { payment } = await paidCharge({ status: 'partially_refunded', paidAmountCents: 1050 });
    await ctx.newRefund(payment, { status: 'succeeded', amountCents: 500, providerRefundId: 'sbxr_never_made', settledAt: new Date() });
    const check = await run();
    expect(linesOf(check, payment)).toEqual([expect.objectContaining({ field: 'returned', gateway_status: 'partially_refunded', gateway_amount: 5, psp_amount: 0 })]);
  });

  it("sums what was returned from the refunds themselves: neither the payment's stored total nor a routing refund counts", async () => {
    const stored = await paidCharge();
    await setPayment(stored.payment.id, { refundedAmountCents: 600 });
    const routing = await paidCharge();
    await ctx.newRefund(routing.payment, { origin: 'routing', status: 'succeeded', amountCents: 1050, txid: 'orphan-txid', settledAt: new Date() });
    const check = await run();
    expect(linesOf(check, stored.payment, routing.payment)).toEqual([]);
  });

  it('counts a payment whose PSP cannot be read as failed, not as a mismatch, and the run still completes', async () => {
    const { payment } = await paidCharge({ status: 'cancelled', paidAmountCents: null });
    await sandbox('POST', '/_control/failures', { mode: 'http_503', count: 10_000, operation: 'get' });
    const check = await run();
    expect(check).toMatchObject({ status: 'completed', checked: 0 });
    expect(check.failed).toBeGreaterThanOrEqual(1);
    expect(linesOf(check, payment)).toEqual([]);
    await sandbox('DELETE', '/_control/failures');
    expect(linesOf(await run(), payment)).toEqual([expect.objectContaining({ field: 'received' })]);
  });

  it('runs one check at a time across processes: a second start while one runs is 409 CONFLICT', async () => {
    await paidCharge();
    // The first PSP read hangs until the client gives up, so the run is still going when the others ask.
    await sandbox('POST', '/_control/failures', { mode: 'timeout', count: 1, operation: 'get' });
    const other = await newService();
    const started = await service.start();
    const refusals = await Promise.allSettled([service.start(), other.start()]);
    for (const refusal of refusals) {
      expect(refusal.status).toBe('rejected');
      expect((refusal as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
      expect((refusal as PromiseRejectedResult).reason).toMatchObject({ code: ErrorCode.CONFLICT, status: 409, message: expect.stringContaining(started.id) });
    }
    await service.whenIdle();
    expect(await service.latest()).toMatchObject({ id: started.id, status: 'completed' });
  });

  it('lets exactly one of two processes that start at once run', async () => {
    const [a, b] = [service, await newService()];
    const results = await Promise.allSettled([a.start(), b.start()]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'rejected')).toEqual([expect.objectContaining({ reason: expect.objectContaining({ code: ErrorCode.CONFLICT }) })]);
    await Promise.all([a.whenIdle(), b.whenIdle()]);
  });

  it('runs the daily check once per day however many processes tick, and not before INVARIANT_CHECK_HOUR', async () => {
    const others = [await newService(), await newService()];
    const all = [service, ...others];
    clock.set(`${clock.now().toISOString().slice(0, 10)}T05:59:00.000Z`);
    expect(await Promise.all(all.map((s) => s.runDaily()))).toEqual([null, null, null]);

    clock.set(`${clock.now().toISOString().slice(0, 10)}T06:00:00.000Z`);
    const first = await Promise.all(all.map((s) => s.runDaily()));
    const ran = first.filter((check) => check !== null);
    expect(ran).toEqual([expect.objectContaining({ trigger: 'daily', dailyOn: clock.now().toISOString().slice(0, 10), error: null })]);
    expect(ran[0]!.finishedAt).not.toBeNull();
    expect(await Promise.all(all.map((s) => s.runDaily()))).toEqual([null, null, null]);

    clock.advance(24 * 3600 * 1000);
    const next = (await Promise.all(all.map((s) => s.runDaily()))).filter((check) => check !== null);
    expect(next).toEqual([expect.objectContaining({ trigger: 'daily', dailyOn: clock.now().toISOString().slice(0, 10) })]);
  });

  it("closes a run whose process died (its lease lapsed) and starts anew; a daily one's day is run again", async () => {
    const day = clock.now().toISOString().slice(0, 10);
    await ctx.dataSource.query(`DELETE FROM invariant_checks WHERE daily_on = $1`, [day]);
    await ctx.dataSource.query(
      `INSERT INTO invariant_checks (id, trigger, daily_on, window_start, started_at, lease_until) VALUES ('ick_dead', 'daily', $1, now(), now() - interval '1 hour', now() - $2 * interval '1 millisecond')`,
      [day, 1],
    );
    const check = await run();
    expect(check.status).toBe('completed');
    const [dead] = await ctx.dataSource.query(`SELECT finished_at, daily_on, error FROM invariant_checks WHERE id = 'ick_dead'`);
    expect(dead).toMatchObject({ finished_at: expect.any(Date), daily_on: null, error: expect.stringMatching(/^Abandoned/) });
    expect(await service.runDaily()).toMatchObject({ trigger: 'daily', dailyOn: day });
  });

  it('does not take over a live run: a lease still held is 409 for everyone else', async () => {
    await ctx.dataSource.query(
      `INSERT INTO invariant_checks (id, trigger, window_start, started_at, lease_until) VALUES ('ick_alive', 'operator', now(), now(), now() + $1 * interval '1 millisecond')`,
      [INVARIANT_LEASE_MS],
    );
    try {
      await expect(service.start()).rejects.toMatchObject({ code: ErrorCode.CONFLICT });
    } finally {
      await ctx.dataSource.query(`DELETE FROM invariant_checks WHERE id = 'ick_alive'`);
    }
  });

  it('stops at shutdown after the reads in hand, records why, and gives a daily run its day back', async () => {
    await ctx.dataSource.query(`DELETE FROM invariant_checks WHERE daily_on IS NOT NULL`);
    await paidCharge();
    await sandbox('POST', '/_control/failures', { mode: 'timeout', count: 1, operation: 'get' });
    const stopping = await newService();
    const daily = stopping.runDaily();
    await eventually(
      () => ctx.dataSource.query(`SELECT id FROM invariant_checks WHERE finished_at IS NULL`),
      (rows: unknown[]) => rows.length === 1,
    );
    await expect(service.start()).rejects.toMatchObject({ code: ErrorCode.CONFLICT }); // it is running
    await stopping.stop();
    expect(await daily).toMatchObject({ trigger: 'daily', dailyOn: null, error: expect.stringMatching(/^Stopped/), finishedAt: expect.any(Date) });
    expect(await service.runDaily()).toMatchObject({ trigger: 'daily', error: null });
  });

  it('reports the last completed run to the mismatch gauge by provider, and counts runs by outcome', async () => {
    const check = await run();
    expect(check.mismatches).toBeGreaterThan(0);
    const text = await metrics.registry.metrics();
    expect(text).toContain(`money_invariant_mismatches{provider="sandbox"} ${check.mismatches}`);
    expect(text).toMatch(/money_invariant_checks_total\{outcome="mismatches"\} [1-9]/);
    const finished = Date.parse(check.finished_at!) / 1000;
    expect(text).toContain(`money_invariant_last_completed_timestamp_seconds ${finished}`);
    // Another process, which ran nothing, reports the same last run from the database.
    const elsewhere = await (await newProcess()).metrics.registry.metrics();
    expect(elsewhere).toContain(`money_invariant_mismatches{provider="sandbox"} ${check.mismatches}`);
  });
});

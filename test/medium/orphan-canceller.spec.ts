import { randomBytes } from 'node:crypto';
import type { TestingModule } from '@nestjs/testing';
import { WebhookUrlPolicy } from '../../src/common/net/webhook-url-policy';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { ORPHAN_MAX_TRIES, OrphanCanceller } from '../../src/payments/routing/orphan-canceller';
import { RefundRepository } from '../../src/payments/refunds/refund.repository';
import { PaymentAttemptRepository } from '../../src/payments/routing/payment-attempt.repository';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProviderAccountsService } from '../../src/providers/provider-accounts/provider-accounts.service';
import { ProvidersModule } from '../../src/providers/providers.module';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { AccountFailureRepository } from '../../src/providers/routing/account-failures.repository';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { chargeRequest, pixApiAccountBody } from '../helpers/factories';
import { MediumContext, newMediumContext } from '../helpers/medium';

/**
 * The orphan job (OrphanCanceller) against the database and a fake Pix API PSP: it cancels a live
 * orphan, finds a missing one absent and a paid one paid, retries a failing PSP with backoff and
 * gives up after ORPHAN_MAX_TRIES, waits while the create has no payment, and two runners never
 * settle one orphan twice.
 */
describe('orphan cancellation (OrphanCanceller)', () => {
  let ctx: MediumContext;
  let psp: PixApiPsp;
  let units: TestingModule;
  let accountId: string;
  const wire = () =>
    ctx.module(
      [
        OrphanCanceller,
        PaymentAttemptRepository,
        RefundRepository,
        GatewayMetrics,
        ProviderAccountsService,
        AccountResolver,
        AccountBreakers,
        AccountFailureRepository,
        ProviderAccountRepository,
        MerchantProviderAccountRepository,
        WebhookUrlPolicy,
      ],
      [ProvidersModule],
    );
  beforeAll(async () => {
    [ctx, psp] = await Promise.all([newMediumContext(), startPixApiPsp()]);
    units = await wire();
    accountId = (await units.get(ProviderAccountsService).create(pixApiAccountBody(psp))).id;
  });
  afterAll(async () => {
    await Promise.all([ctx.close(), psp.close()]);
  });
  afterEach(() => {
    psp.reset();
    psp.assertNoViolations();
  });

  /** A charge made at the PSP through the account, as an ambiguous attempt would have left it. */
  const chargeAtPsp = async () => {
    const acting = await units.get(AccountResolver).byId(accountId);
    return (await acting.adapter.createCharge(acting.account, chargeRequest(acting.notificationUrl))).txid;
  };
  /** An ambiguous attempt at the account with `txid`, due now, of a create that ended charged elsewhere (or with no payment). */
  const orphanOf = async (txid: string, options: { withPayment?: boolean } = {}) => {
    const shop = await ctx.newMerchant();
    const payment = options.withPayment === false ? null : await ctx.newPayment(shop.merchant.id, { providerAccountId: 'pa_elsewhere' });
    return units.get(PaymentAttemptRepository).record({
      paymentId: payment?.id ?? `pay_${randomBytes(8).toString('hex')}`,
      merchantId: shop.merchant.id,
      accountId,
      provider: 'pix-api',
      environment: 'sandbox',
      txid,
      providerPaymentId: null,
      outcome: 'ambiguous',
      upstreamStatus: 503,
      error: 'HTTP 503',
      durationMs: 30,
      at: new Date(Date.now() - 1000),
      orphanDueAt: new Date(Date.now() - 1000),
    });
  };
  const orphanRow = async (id: string) =>
    (await ctx.dataSource.query(`SELECT orphan_status, orphan_tries, orphan_last_error, orphan_next_at FROM payment_attempts WHERE id = $1`, [id]))[0];
  const run = () => units.get(OrphanCanceller).runOnce();

  it('cancels a live orphan at its PSP, finds a missing one absent and a paid one paid', async () => {
    const live = await orphanOf(await chargeAtPsp());
    const missing = await orphanOf(randomBytes(16).toString('hex'));
    const paidTxid = await chargeAtPsp();
    await psp.pay(paidTxid, { postCallback: false });
    const paid = await orphanOf(paidTxid);

    await run();
    expect(await orphanRow(live.id)).toMatchObject({ orphan_status: 'cancelled', orphan_tries: 1, orphan_last_error: null });
    expect(psp.charges.get(live.txid!).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(await orphanRow(missing.id)).toMatchObject({ orphan_status: 'absent' });
    expect(await orphanRow(paid.id)).toMatchObject({ orphan_status: 'paid' });
    const metrics = await units.get(GatewayMetrics).registry.metrics();
    expect(metrics).toMatch(/routing_orphans_settled_total\{result="paid"\} 1/);
    expect(metrics).toMatch(/routing_orphan_cancellations_pending 0/);
  });

  it('retries a failing PSP later, and gives up as failed after the last try', async () => {
    const orphan = await orphanOf(await chargeAtPsp());
    psp.fail({ kind: 'status', status: 503, path: '/cob/', times: 50 });
    await run();
    const retried = await orphanRow(orphan.id);
    expect(retried).toMatchObject({ orphan_status: 'pending', orphan_tries: 1, orphan_last_error: expect.stringMatching(/503/) });
    expect(new Date(retried.orphan_next_at).getTime()).toBeGreaterThan(Date.now());

    // Due a second ago: the database's now() has microseconds, the run's clock only milliseconds.
    await ctx.dataSource.query(`UPDATE payment_attempts SET orphan_tries = $2, orphan_next_at = now() - interval '1 second' WHERE id = $1`, [orphan.id, ORPHAN_MAX_TRIES - 1]);
    await run();
    expect(await orphanRow(orphan.id)).toMatchObject({ orphan_status: 'failed', orphan_tries: ORPHAN_MAX_TRIES });
  });

  it('waits while the create has no payment (a retry of the key may still use the charge)', async () => {
    const txid = await chargeAtPsp();
    const orphan = await orphanOf(txid, { withPayment: false });
    expect((await run()).waiting).toBeGreaterThanOrEqual(1);
    const row = await orphanRow(orphan.id);
    expect(row).toMatchObject({ orphan_status: 'pending', orphan_tries: 0 });
    expect(new Date(row.orphan_next_at).getTime()).toBeGreaterThan(Date.now());
    expect(psp.charges.get(txid).status).toBe('ATIVA');
  });

  it('settles each orphan once when two runners (two processes) go at once', async () => {
    const other = await wire();
    const orphans = await Promise.all(Array.from({ length: 6 }, async () => orphanOf(await chargeAtPsp())));
    const cancelsBefore = psp.requests.filter((r) => r.method === 'PATCH').length;
    await Promise.all([run(), other.get(OrphanCanceller).runOnce()]);
    for (const orphan of orphans) expect(await orphanRow(orphan.id)).toMatchObject({ orphan_status: 'cancelled', orphan_tries: 1 });
    expect(psp.requests.filter((r) => r.method === 'PATCH').length - cancelsBefore).toBe(6);
  });
});

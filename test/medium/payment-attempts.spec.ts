import { randomBytes } from 'node:crypto';
import { newId } from '../../src/common/ids';
import { type NewAttempt, PaymentAttemptRepository } from '../../src/payments/routing/payment-attempt.repository';
import { AccountFailureRepository } from '../../src/providers/routing/account-failures.repository';
import { MediumContext, newMediumContext } from '../helpers/medium';

/** The attempts table and its orphan queue (PaymentAttemptRepository), and the accounts' failure summaries, against the database. */
describe('payment attempts and orphans (PaymentAttemptRepository)', () => {
  let ctx: MediumContext;
  let attempts: PaymentAttemptRepository;
  let failures: AccountFailureRepository;
  beforeAll(async () => {
    ctx = await newMediumContext();
    const moduleRef = await ctx.module([PaymentAttemptRepository, AccountFailureRepository]);
    attempts = moduleRef.get(PaymentAttemptRepository);
    failures = moduleRef.get(AccountFailureRepository);
  });
  afterAll(() => ctx.close());

  const attempt = (merchantId: string, paymentId: string, overrides: Partial<NewAttempt> = {}): NewAttempt => ({
    paymentId,
    merchantId,
    accountId: 'pa_first',
    provider: 'pix-api',
    environment: 'sandbox',
    txid: randomBytes(16).toString('hex'),
    providerPaymentId: null,
    outcome: 'refused',
    upstreamStatus: null,
    error: null,
    durationMs: 12,
    at: new Date(),
    orphanDueAt: null,
    ...overrides,
  });
  const pastDue = () => new Date(Date.now() - 1000);
  const claimOne = async (id: string, leaseMs = 60_000) => (await attempts.claimDueOrphans(100, leaseMs, new Date())).find((c) => c.attempt.id === id);

  it('numbers a payment’s attempts in order and lists them oldest first, only to their merchant', async () => {
    const shop = await ctx.newMerchant();
    const other = await ctx.newMerchant();
    const paymentId = newId('pay');
    await attempts.record(attempt(shop.merchant.id, paymentId, { outcome: 'ambiguous', upstreamStatus: 503, error: 'HTTP 503', orphanDueAt: new Date() }));
    await attempts.record(attempt(shop.merchant.id, paymentId, { accountId: 'pa_second', outcome: 'charged', providerPaymentId: 'p-1' }));
    const listed = await attempts.listForPayment(shop.merchant.id, paymentId);
    expect(listed.map((a) => [a.attempt, a.accountId, a.outcome, a.upstreamStatus, a.orphanStatus])).toEqual([
      [1, 'pa_first', 'ambiguous', 503, 'pending'],
      [2, 'pa_second', 'charged', null, null],
    ]);
    expect(listed[0]!.id).toMatch(/^att_/);
    expect(await attempts.listForPayment(other.merchant.id, paymentId)).toEqual([]);
  });

  it('leases a due orphan away from other claims until the lease lapses, and shows whether its create made a payment', async () => {
    const shop = await ctx.newMerchant();
    const payment = await ctx.newPayment(shop.merchant.id, { providerAccountId: 'pa_second', txid: 'charged-elsewhere' });
    const orphan = await attempts.record(attempt(shop.merchant.id, payment.id, { outcome: 'ambiguous', orphanDueAt: pastDue() }));
    const notYet = await attempts.record(attempt(shop.merchant.id, payment.id, { outcome: 'ambiguous', orphanDueAt: new Date(Date.now() + 60_000) }));
    const claimed = await claimOne(orphan.id);
    expect(claimed?.payment).toEqual({ providerAccountId: 'pa_second', txid: 'charged-elsewhere' });
    expect(await claimOne(orphan.id)).toBeUndefined();
    expect(await claimOne(notYet.id)).toBeUndefined();
    await ctx.dataSource.query(`UPDATE payment_attempts SET orphan_locked_until = now() - interval '1 second' WHERE id = $1`, [orphan.id]);
    expect(await claimOne(orphan.id)).toBeDefined();

    const failedCreate = await attempts.record(attempt(shop.merchant.id, newId('pay'), { outcome: 'ambiguous', orphanDueAt: pastDue() }));
    expect((await claimOne(failedCreate.id))?.payment).toBeNull();
  });

  it('settles, retries and adopts orphans, and counts those pending', async () => {
    const shop = await ctx.newMerchant();
    const paymentId = newId('pay');
    const before = await attempts.countPendingOrphans();
    const settled = await attempts.record(attempt(shop.merchant.id, paymentId, { outcome: 'ambiguous', orphanDueAt: pastDue() }));
    const retried = await attempts.record(attempt(shop.merchant.id, paymentId, { outcome: 'ambiguous', orphanDueAt: pastDue() }));
    const adopted = await attempts.record(attempt(shop.merchant.id, paymentId, { accountId: 'pa_adopt', txid: 'same-txid', outcome: 'ambiguous', orphanDueAt: pastDue() }));
    expect(await attempts.countPendingOrphans()).toBe(before + 3);

    await attempts.settleOrphan(settled.id, 'cancelled', null, new Date());
    await attempts.retryOrphanAt(retried.id, new Date(Date.now() + 60_000), 'HTTP 503', new Date());
    await attempts.adoptCharge(paymentId, 'pa_adopt', 'same-txid', new Date());
    const byId = new Map((await attempts.listForPayment(shop.merchant.id, paymentId)).map((a) => [a.id, a]));
    expect(byId.get(settled.id)).toMatchObject({ orphanStatus: 'cancelled', orphanTries: 1, orphanLockedUntil: null });
    expect(byId.get(retried.id)).toMatchObject({ orphanStatus: 'pending', orphanTries: 1, orphanLastError: 'HTTP 503' });
    expect(byId.get(adopted.id)).toMatchObject({ orphanStatus: null, orphanTries: 0 });
    expect(await claimOne(retried.id)).toBeUndefined(); // due later
    expect(await attempts.countPendingOrphans()).toBe(before + 1);
  });

  it('summarises an account’s recent failures and its newest one', async () => {
    const shop = await ctx.newMerchant();
    const account = `pa_${randomBytes(6).toString('hex')}`;
    const hourAgo = new Date(Date.now() - 3600_000);
    await attempts.record(attempt(shop.merchant.id, newId('pay'), { accountId: account, outcome: 'ambiguous', error: 'old', at: new Date(hourAgo.getTime() - 1000) }));
    await attempts.record(attempt(shop.merchant.id, newId('pay'), { accountId: account, outcome: 'refused', error: 'HTTP 401', at: new Date(Date.now() - 2000) }));
    await attempts.record(attempt(shop.merchant.id, newId('pay'), { accountId: account, outcome: 'charged', at: new Date() }));
    const summary = (await failures.summaries([account, 'pa_none'], hourAgo)).get(account);
    expect(summary).toMatchObject({ recentFailures: 1, lastError: 'HTTP 401' });
    expect(summary!.lastFailureAt!.getTime()).toBeLessThan(Date.now());
    expect((await failures.summaries(['pa_none'], hourAgo)).has('pa_none')).toBe(false);
  });
});

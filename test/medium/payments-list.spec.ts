import { IdempotencyRecordRepository } from '../../src/idempotency/idempotency-record.repository';
import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { PaymentRepository } from '../../src/payments/payment.repository';
import { PaymentsService } from '../../src/payments/payments.service';
import { PaymentAttemptRepository } from '../../src/payments/routing/payment-attempt.repository';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProvidersModule } from '../../src/providers/providers.module';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';
import { PaymentViews } from '../../src/payments/payment-views';

/**
 * A merchant's list of its payments (PaymentsService.list, what `GET /v1/payments` answers): its own
 * only, newest first, a keyset page at a time, by `externalId`, status and creation time. The
 * route's validation of the filters, and its items as the create answered them, are
 * test/e2e/payments-list.e2e-spec.ts.
 */
describe(`a merchant's payments, listed (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let payments: PaymentsService;
  beforeAll(async () => {
    ctx = await newMediumContext();
    payments = await ctx.get(
      PaymentsService,
      [
        PaymentViews,
        PaymentRepository,
        IdempotencyService,
        IdempotencyRecordRepository,
        GatewayMetrics,
        AccountResolver,
        AccountBreakers,
        ProviderAccountRepository,
        MerchantProviderAccountRepository,
        PaymentAttemptRepository,
      ],
      [ProvidersModule],
    );
  });
  afterAll(() => ctx?.close());

  it("lists only the merchant's own payments, newest first, a page at a time", async () => {
    const mine = await ctx.newMerchant();
    const theirs = await ctx.newMerchant();
    const base = Date.now() - 60_000;
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await ctx.newPayment(mine.merchant.id, { createdAt: new Date(base + i * 1000) }));
    await ctx.newPayment(theirs.merchant.id, { createdAt: new Date(base + 10_000) });

    const first = await payments.list(mine.merchant.id, { limit: 2 });
    expect(first.items.map((p) => p.id)).toEqual([created[4]!.id, created[3]!.id]);
    const seen = [...first.items];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await payments.list(mine.merchant.id, { limit: 2, cursor });
      seen.push(...page.items);
      cursor = page.next_cursor;
    }
    expect(seen.map((p) => p.id)).toEqual([...created].reverse().map((p) => p.id));
  });

  it('finds the payment of an order by its externalId, and filters by status and creation time', async () => {
    const shop = await ctx.newMerchant();
    const other = await ctx.newMerchant();
    const order = await ctx.newPayment(shop.merchant.id, { externalId: 'order-42', status: 'paid', createdAt: new Date('2026-11-01T12:00:00Z') });
    await ctx.newPayment(shop.merchant.id, { externalId: 'order-43', createdAt: new Date('2026-11-02T12:00:00Z') });
    // Another merchant's payment for an order of the same name never shows.
    await ctx.newPayment(other.merchant.id, { externalId: 'order-42' });
    const list = (query: Parameters<PaymentsService['list']>[1]) => payments.list(shop.merchant.id, query);

    expect((await list({ externalId: 'order-42' })).items.map((p) => p.id)).toEqual([order.id]);
    expect((await list({ status: 'paid' })).items.map((p) => p.id)).toEqual([order.id]);
    expect((await list({ created_from: '2026-11-02T00:00:00Z' })).items.map((p) => p.externalId)).toEqual(['order-43']);
    expect((await list({ created_to: '2026-11-02T00:00:00Z' })).items.map((p) => p.externalId)).toEqual(['order-42']);
    expect(await list({ externalId: 'order-none' })).toEqual({ items: [], next_cursor: null });
  });
});

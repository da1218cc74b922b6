import { IdempotencyRecordRepository } from '../../src/idempotency/idempotency-record.repository';
import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { MerchantRepository } from '../../src/merchants/merchant.repository';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { PaymentLinkOpenRepository } from '../../src/payment-links/payment-link-open.repository';
import { PaymentLinkPagesService, type OpenPaymentResult } from '../../src/payment-links/payment-link-pages.service';
import { OPEN_HOLD_MS, OPEN_WINDOW_MS } from '../../src/payment-links/payment-link-rules';
import { PaymentLinkRepository } from '../../src/payment-links/payment-link.repository';
import type { PaymentLinkView } from '../../src/payment-links/payment-link.view';
import { PaymentLinksService } from '../../src/payment-links/payment-links.service';
import { PaymentRepository } from '../../src/payments/payment.repository';
import { PaymentViews } from '../../src/payments/payment-views';
import { PaymentsService } from '../../src/payments/payments.service';
import { PaymentAttemptRepository } from '../../src/payments/routing/payment-attempt.repository';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProvidersModule } from '../../src/providers/providers.module';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { type RunningSandbox, startSandboxServer } from '../../src/sandbox-psp/standalone';
import { FakeClock } from '../../src/testing/fake-clock';
import type { CreatePaymentLinkDto } from '../../src/payment-links/dto/create-payment-link.dto';
import type { MerchantFixture } from '../helpers/factories';
import { type MediumContext, newMediumContext } from '../helpers/medium';
import { SandboxCharges } from '../helpers/sandbox-charges';
import { testDatabase } from '../helpers/test-env';

/** One gateway process: the links' services over the real payments core, routed to the simulated PSP. */
interface Process {
  links: PaymentLinksService;
  pages: PaymentLinkPagesService;
}

/**
 * Payment links against the database (docs/api.md, Payment links): counts read from the link's
 * payments, never added to; the hourly allowance of one address and the last place of
 * `maxPayments` held under the link's lock, so that two opens at once (two processes, on
 * PostgreSQL truly concurrent) never exceed either. Payments are made by the real payments core at
 * the simulated PSP, run alone on a port of its own. The routes are test/e2e/payment-links.e2e-spec.ts.
 */
describe(`payment links: counts and opens (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let psp: RunningSandbox;
  let charges: SandboxCharges;
  let one: Process;
  let two: Process;
  let shop: MerchantFixture;
  const clock = new FakeClock(new Date());

  beforeAll(async () => {
    psp = await startSandboxServer({ logLevel: 'silent' });
    charges = new SandboxCharges(psp.url, { authorization: `Bearer ${psp.apiToken}` });
    ctx = await newMediumContext({ clock, env: { SANDBOX_BASE_URL: psp.url, SANDBOX_API_TOKEN: psp.apiToken } });
    [one, two] = [await process(), await process()];
    shop = await ctx.newMerchant({ name: 'Loja da Ana' });
  });
  afterAll(async () => {
    await ctx?.close();
    await psp?.close();
  });

  async function process(): Promise<Process> {
    const moduleRef = await ctx.module(
      [
        PaymentLinkRepository,
        PaymentLinkOpenRepository,
        PaymentLinksService,
        PaymentLinkPagesService,
        MerchantRepository,
        PaymentsService,
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
    return { links: moduleRef.get(PaymentLinksService), pages: moduleRef.get(PaymentLinkPagesService) };
  }

  const newLink = (body: Partial<CreatePaymentLinkDto> = {}, merchantId = shop.merchant.id): Promise<PaymentLinkView> =>
    one.links.createForMerchant(merchantId, { title: 'Camiseta azul', amount: 59.9, ...body });
  const slugOf = (link: PaymentLinkView) => link.url.split('/l/')[1]!;
  const payer = (n = 0) => ({ name: `Pagador ${n}`, document: '123.456.789-09', email: `p${n}@example.com` });
  // An amount goes with every form: a range link reads it, a fixed one ignores it.
  const open = (link: PaymentLinkView, address: string, by: Process = one) =>
    by.pages.openPayment(slugOf(link), { ...payer(), amount: '20' }, address, '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11');
  const kinds = (results: OpenPaymentResult[]) => results.map((result) => result.kind).sort();
  const setStatus = (paymentId: string, status: string, paid = false) =>
    ctx.dataSource.query(`UPDATE payments SET status = $2, paid_at = CASE WHEN $3 THEN now() ELSE paid_at END WHERE id = $1`, [paymentId, status, paid]);
  const created = (result: OpenPaymentResult) => {
    if (result.kind !== 'created') throw new Error(`expected a payment, got ${JSON.stringify(result)}`);
    return result;
  };

  it("counts a link's payments from the payments, and is used up once paid and pending ones fill maxPayments", async () => {
    const link = await newLink({ maxPayments: 3 });
    expect(link).toMatchObject({ state: 'open', paymentsCount: 0, paidCount: 0, maxPayments: 3, collect: { email: false }, amount: 59.9, amountRange: null });
    expect(slugOf(link)).toMatch(/^[A-Za-z0-9]{20}$/);
    const paid = await ctx.newPayment(shop.merchant.id, { paymentLinkId: link.id, status: 'paid', paidAt: new Date() });
    await ctx.newPayment(shop.merchant.id, { paymentLinkId: link.id, status: 'refunded', paidAt: new Date() });
    const pending = await ctx.newPayment(shop.merchant.id, { paymentLinkId: link.id });
    await ctx.newPayment(shop.merchant.id, { paymentLinkId: link.id, status: 'expired' });
    // Another link's payment, and a payment of the merchant's own, count for nothing here.
    await ctx.newPayment(shop.merchant.id, { paymentLinkId: (await newLink()).id, status: 'paid', paidAt: new Date() });
    await ctx.newPayment(shop.merchant.id, { status: 'paid', paidAt: new Date() });

    expect(await one.links.get(shop.merchant.id, link.id)).toMatchObject({ paymentsCount: 4, paidCount: 2, state: 'used_up' });
    expect(await one.pages.findBySlug(slugOf(link))).toMatchObject({ linkId: link.id, merchantId: shop.merchant.id, merchantDisplayName: 'Loja da Ana', state: 'used_up' });
    expect(await open(link, '198.51.100.7')).toEqual({ kind: 'unavailable', reason: 'used_up' });

    // The pending one expires: its place is back.
    await setStatus(pending.id, 'expired');
    expect(await one.links.get(shop.merchant.id, link.id)).toMatchObject({ paymentsCount: 4, paidCount: 2, state: 'open' });
    // A refund does not give the place of a paid payment back.
    await setStatus(paid.id, 'refunded');
    expect((await one.links.get(shop.merchant.id, link.id)).paidCount).toBe(2);
  });

  it('lists only the merchant’s links, newest first, filtered by active, and deactivates once', async () => {
    const other = await ctx.newMerchant();
    const theirs = await newLink({}, other.merchant.id);
    clock.advance(1000);
    const first = await newLink({ title: 'Primeiro' }, other.merchant.id);
    clock.advance(1000);
    const second = await newLink({ title: 'Segundo' }, other.merchant.id);
    expect((await one.links.deactivate(other.merchant.id, first.id)).state).toBe('inactive');
    const deactivated = await one.links.get(other.merchant.id, first.id);
    // Already inactive: answered as it is.
    expect(await one.links.deactivate(other.merchant.id, first.id)).toEqual(deactivated);

    const page = await one.links.list(other.merchant.id, { limit: 2 });
    expect(page.items.map((l) => l.id)).toEqual([second.id, first.id]);
    const rest = await one.links.list(other.merchant.id, { limit: 2, cursor: page.next_cursor! });
    expect(rest).toEqual({ items: [expect.objectContaining({ id: theirs.id })], next_cursor: null });
    expect((await one.links.list(other.merchant.id, { active: 'false' })).items.map((l) => l.id)).toEqual([first.id]);
    expect((await one.links.list(other.merchant.id, { active: 'true' })).items.map((l) => l.id)).toEqual([second.id, theirs.id]);
    await expect(one.links.get(shop.merchant.id, theirs.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(one.links.deactivate(shop.merchant.id, theirs.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await one.links.get(other.merchant.id, theirs.id)).active).toBe(true);
  });

  it('opens payments for one address until it holds ten pending in the hour, two at once for the tenth making one', async () => {
    const link = await newLink({ title: 'Doação', amount: undefined, amountRange: { min: 5, max: 100 }, collect: { email: true }, returnUrl: 'https://shop.example.com/obrigado' });
    const first = created(await one.pages.openPayment(slugOf(link), { ...payer(1), amount: '12,50' }, '203.0.113.5', '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11'));
    const [payment] = await ctx.dataSource.query(`SELECT * FROM payments WHERE id = $1`, [first.paymentId]);
    expect(payment).toMatchObject({
      merchant_id: shop.merchant.id,
      payment_link_id: link.id,
      external_id: `${link.id}-1`,
      amount_cents: '1250',
      description: 'Doação',
      recipient_name: 'Pagador 1',
      recipient_document: '12345678909',
      recipient_email: 'p1@example.com',
      return_url: 'https://shop.example.com/obrigado',
      checkout_token: first.checkoutToken,
      status: 'pending',
    });
    for (let i = 2; i <= 9; i++) expect((await open(link, '203.0.113.5')).kind).toBe('created');
    // The tenth and an eleventh at once, in two processes: one payment, one wait.
    const race = await Promise.all([open(link, '203.0.113.5', one), open(link, '203.0.113.5', two)]);
    expect(kinds(race)).toEqual(['created', 'wait']);
    const wait = race.find((r) => r.kind === 'wait')!;
    expect(wait).toEqual({ kind: 'wait', retryAfterSeconds: 3600 });
    expect(await ctx.dataSource.query(`SELECT count(*)::int AS n FROM payments WHERE payment_link_id = $1`, [link.id])).toEqual([{ n: 10 }]);
    // Another address is not held back; the hour is per address, and the address is never stored.
    expect((await open(link, '203.0.113.6')).kind).toBe('created');
    expect(await ctx.dataSource.query(`SELECT count(*)::int AS n FROM payment_link_opens WHERE address_hash LIKE '%203.0.113%'`)).toEqual([{ n: 0 }]);

    // A payment paid gives its opener one more.
    await setStatus(first.paymentId, 'paid', true);
    expect((await open(link, '203.0.113.5')).kind).toBe('created');
    expect((await open(link, '203.0.113.5')).kind).toBe('wait');
    // An hour later the pending ones opened then no longer count.
    clock.advance(OPEN_WINDOW_MS + 1000);
    expect((await open(link, '203.0.113.5')).kind).toBe('created');
    const numbers = await ctx.dataSource.query(`SELECT external_id FROM payments WHERE payment_link_id = $1 ORDER BY created_at`, [link.id]);
    expect(numbers.map((row: { external_id: string }) => row.external_id)).toEqual(Array.from({ length: 13 }, (_, i) => `${link.id}-${i + 1}`));
  });

  it('sells the last place of maxPayments once, whoever asks at the same time', async () => {
    const link = await newLink({ maxPayments: 2 });
    const bought = created(await open(link, '198.51.100.1'));
    const race = await Promise.all([open(link, '198.51.100.2', one), open(link, '198.51.100.3', two)]);
    expect(race.map((r) => (r.kind === 'unavailable' ? r.reason : r.kind)).sort()).toEqual(['created', 'used_up']);
    expect(await ctx.dataSource.query(`SELECT count(*)::int AS n FROM payments WHERE payment_link_id = $1`, [link.id])).toEqual([{ n: 2 }]);
    expect((await one.pages.findBySlug(slugOf(link)))!.state).toBe('used_up');
    // A pending payment cancelled gives its place back.
    await setStatus(bought.paymentId, 'cancelled');
    expect((await one.pages.findBySlug(slugOf(link)))!.state).toBe('open');
    expect((await open(link, '198.51.100.4')).kind).toBe('created');
    expect((await one.links.get(shop.merchant.id, link.id)).state).toBe('used_up');
  });

  it('holds the place of a payment still being made, and gives back one whose process died once the hold has passed', async () => {
    const link = await newLink({ maxPayments: 1 });
    const links = await ctx.get(PaymentLinkRepository);
    const opens = await ctx.get(PaymentLinkOpenRepository);
    // An open written, its payment never made (the process stopped while the PSP was asked).
    await ctx.dataSource.transaction(async (tx) => {
      await links.lockBySlug(tx, slugOf(link));
      await opens.insertNext(tx, { linkId: link.id, merchantId: shop.merchant.id, addressHash: 'dead', createdAt: clock.now() });
    });
    expect((await one.pages.findBySlug(slugOf(link)))!.state).toBe('used_up');
    expect(await open(link, '192.0.2.1')).toEqual({ kind: 'unavailable', reason: 'used_up' });
    clock.advance(OPEN_HOLD_MS + 1000);
    expect((await one.pages.findBySlug(slugOf(link)))!.state).toBe('open');
    // The next open's number follows the abandoned one's: no external id is used twice.
    const next = created(await open(link, '192.0.2.1'));
    expect(await ctx.dataSource.query(`SELECT external_id FROM payments WHERE id = $1`, [next.paymentId])).toEqual([{ external_id: `${link.id}-2` }]);
  });

  it('answers a payment the PSP refuses as failed, and its open holds no place', async () => {
    const link = await newLink({ maxPayments: 1 });
    expect((await charges.call('POST', '/_control/failures', { mode: 'http_422', count: 1, operation: 'create' })).status).toBe(204);
    expect(await open(link, '192.0.2.9')).toEqual({ kind: 'failed', message: expect.stringContaining('try again') });
    expect(await ctx.dataSource.query(`SELECT failed_at IS NOT NULL AS failed FROM payment_link_opens WHERE link_id = $1`, [link.id])).toEqual([{ failed: true }]);
    expect((await one.pages.findBySlug(slugOf(link)))!.state).toBe('open');
    expect((await open(link, '192.0.2.9')).kind).toBe('created');
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { signSandboxPayload } from '../../src/common/sandbox-wire/sandbox-signature';
import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { EventWriter } from '../../src/payments/lifecycle/event-writer';
import { PaymentEventRepository } from '../../src/payments/lifecycle/payment-event.repository';
import { PaymentEventsService } from '../../src/payments/lifecycle/payment-events.service';
import { PaymentRepository } from '../../src/payments/payment.repository';
import { RefundEventsService } from '../../src/payments/refunds/refund-events.service';
import { RefundRepository } from '../../src/payments/refunds/refund.repository';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProvidersModule } from '../../src/providers/providers.module';
import type { WebhookIntakeResult } from '../../src/webhooks/dto/webhook-intake-result';
import { WebhookIntakeService } from '../../src/webhooks/webhook-intake.service';
import { MerchantFixture } from '../helpers/factories';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

const SECRET = 'sandbox-webhook-secret-for-tests';
/** Nothing listens on the discard port: forwards queued here fail, which these specs do not look at. */
const MERCHANT_URL = 'http://127.0.0.1:9/pix-hook';

/** A sandbox event body as the sandbox PSP sends it. */
function sandboxEvent(paymentRef: string, overrides: { event?: string; amount?: number; id?: string } = {}) {
  return {
    event: overrides.event ?? 'payment.confirmed',
    id: overrides.id ?? `evt_sbx_${randomBytes(8).toString('hex')}`,
    created_at: new Date().toISOString(),
    data: { id: paymentRef, txid: 'irrelevant', amount: overrides.amount ?? 10.5, status: 'CONCLUIDA' },
  };
}

/**
 * The intake's rules for the sandbox's built-in account (WebhookIntakeService with the sandbox
 * adapter that verifies the signature, and the apply service that records, moves and forwards):
 * duplicates, unknown payments, other providers' payments, amounts, order, the outbox write, and
 * events racing each other. What the HTTP route adds (status codes, the envelope, refused
 * signatures, malformed bodies) is test/e2e/webhook-intake.e2e-spec.ts.
 */
describe(`webhook intake (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let shop: MerchantFixture;
  let intake: WebhookIntakeService;
  beforeAll(async () => {
    ctx = await newMediumContext({ env: { SANDBOX_WEBHOOK_SECRET: SECRET } });
    shop = await ctx.newMerchant({ webhookUrl: MERCHANT_URL });
    intake = await ctx.get(
      WebhookIntakeService,
      [
        AccountResolver,
        AccountBreakers,
        ProviderAccountRepository,
        MerchantProviderAccountRepository,
        GatewayMetrics,
        PaymentEventsService,
        EventWriter,
        RefundEventsService,
        RefundRepository,
        PaymentRepository,
        PaymentEventRepository,
        WebhookDeliveryRepository,
      ],
      [ProvidersModule],
    );
  });
  afterAll(() => ctx?.close());

  /** The request's id, which the forward carries as its X-Request-Id. */
  let requestId = '';
  /** A signed sandbox callback for the built-in account, as POST /webhooks/sandbox hands it over. */
  const post = async (body: unknown): Promise<WebhookIntakeResult> => {
    const raw = JSON.stringify(body);
    requestId = randomUUID();
    const headers = { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxPayload(SECRET, raw, Math.floor(Date.now() / 1000)) };
    return (await intake.receive('sandbox', { method: 'POST', path: '', query: {}, headers, rawBody: Buffer.from(raw) }, body, requestId)).data;
  };
  const paymentRow = async (id: string) => (await ctx.dataSource.query(`SELECT status, paid_at FROM payments WHERE id = $1`, [id]))[0];
  const eventsOf = (paymentId: string) =>
    ctx.dataSource.query(
      `SELECT id, type, source, outcome, from_status, to_status, forward, note, request_id, created_at FROM payment_events WHERE payment_id = $1 ORDER BY created_at`,
      [paymentId],
    );
  const deliveriesOf = (paymentId: string) => ctx.dataSource.query(`SELECT * FROM webhook_deliveries WHERE payment_id = $1`, [paymentId]);

  describe('rules', () => {
    it('applies a repeated event id once and queues one forward', async () => {
      const payment = await ctx.newPayment(shop.merchant.id);
      const event = sandboxEvent(payment.id);
      const first = await post(event);
      const second = await post(event);
      expect(first).toMatchObject({ duplicate: false, applied: true, forward: 'queued' });
      expect(second).toEqual({ received: true, duplicate: true });
      expect(await eventsOf(payment.id)).toHaveLength(1);
      expect(await deliveriesOf(payment.id)).toHaveLength(1);
    });

    it('keeps an event for an unknown payment, answers matched:false and forwards nothing', async () => {
      const event = sandboxEvent('sbx_no_such_charge');
      const res = await post(event);
      expect(res).toMatchObject({ received: true, duplicate: false, matched: false });
      const [stored] = await ctx.dataSource.query(`SELECT id, payment_id, outcome, forward, payload FROM payment_events WHERE provider_event_id = $1`, [event.id]);
      expect(stored).toMatchObject({ payment_id: null, outcome: 'unmatched', forward: 'none', payload: event });
      expect(await ctx.dataSource.query(`SELECT 1 FROM webhook_deliveries WHERE event_id = $1`, [stored.id])).toHaveLength(0);
    });

    it("never matches another provider's payment, even by the gateway's id", async () => {
      const foreign = await ctx.newPayment(shop.merchant.id, { provider: 'acme-pay' });
      const res = await post(sandboxEvent(foreign.id));
      expect(res.matched).toBe(false);
      expect((await paymentRow(foreign.id)).status).toBe('pending');
    });

    it('does not apply an event whose amount differs from the payment, and says so', async () => {
      const payment = await ctx.newPayment(shop.merchant.id, { amountCents: 1050 });
      const res = await post(sandboxEvent(payment.id, { amount: 10.49 }));
      expect(res).toMatchObject({ matched: true, applied: false, reason: 'amount_mismatch', status: 'pending', forward: 'none' });
      expect((await paymentRow(payment.id)).status).toBe('pending');
      expect(await eventsOf(payment.id)).toEqual([expect.objectContaining({ outcome: 'amount_mismatch', note: expect.stringContaining('10.49') })]);
      expect(await deliveriesOf(payment.id)).toHaveLength(0);
    });

    it('records an out-of-order event in the history and otherwise ignores it', async () => {
      const payment = await ctx.newPayment(shop.merchant.id);
      await post(sandboxEvent(payment.id));
      const late = await post(sandboxEvent(payment.id, { event: 'payment.expired' }));
      expect(late).toMatchObject({ matched: true, applied: false, reason: 'transition_not_allowed', status: 'paid' });
      expect((await paymentRow(payment.id)).status).toBe('paid');
      expect(await eventsOf(payment.id)).toEqual([
        expect.objectContaining({ type: 'payment.confirmed', outcome: 'applied', from_status: 'pending', to_status: 'paid', forward: 'queued' }),
        expect.objectContaining({
          type: 'payment.expired',
          outcome: 'ignored',
          from_status: 'paid',
          to_status: 'expired',
          forward: 'none',
          note: 'A paid payment cannot become expired.',
        }),
      ]);
      expect(await deliveriesOf(payment.id)).toHaveLength(1);
    });

    it("finds the payment by the provider's payment id", async () => {
      const payment = await ctx.newPayment(shop.merchant.id);
      const res = await post(sandboxEvent(payment.providerPaymentId!));
      expect(res).toMatchObject({ matched: true, applied: true, payment_id: payment.id });
      expect((await paymentRow(payment.id)).status).toBe('paid');
    });

    it('writes the event, the new status and the forward together', async () => {
      const payment = await ctx.newPayment(shop.merchant.id, { amountCents: 123456, externalId: 'order-outbox' });
      await post(sandboxEvent(payment.id, { amount: 1234.56 }));
      const [event] = await eventsOf(payment.id);
      const [delivery] = await deliveriesOf(payment.id);
      const { status, paid_at } = await paymentRow(payment.id);
      expect(status).toBe('paid');
      expect(delivery).toMatchObject({
        event_id: event.id,
        merchant_id: shop.merchant.id,
        event_type: 'payment.confirmed',
        request_id: requestId,
        status: expect.any(String),
      });
      expect(delivery.body).toEqual({
        event: 'payment.confirmed',
        id: event.id,
        created_at: event.created_at.toISOString(),
        data: {
          id: payment.id,
          amount: 1234.56,
          status: 'paid',
          externalId: 'order-outbox',
          provider: 'sandbox',
          paidAt: paid_at.toISOString(),
          paidAfterClose: false,
          refundedAmount: 0,
        },
      });
      expect(event.id).toMatch(/^evt_[A-Za-z0-9]{24}$/);
      expect(delivery.created_at).toEqual(event.created_at); // one clock reading: written by one transaction
    });

    it('records that a merchant without a webhook_url was not forwarded to', async () => {
      const quiet = await ctx.newMerchant();
      const payment = await ctx.newPayment(quiet.merchant.id);
      const res = await post(sandboxEvent(payment.id));
      expect(res).toMatchObject({ applied: true, forward: 'no_webhook_url' });
      expect(await eventsOf(payment.id)).toEqual([expect.objectContaining({ outcome: 'applied', forward: 'no_webhook_url' })]);
      expect(await deliveriesOf(payment.id)).toHaveLength(0);
    });
  });

  /**
   * Events racing each other. On the embedded database everything is serialised by its one
   * connection; on PostgreSQL the transactions really overlap, which is where the row lock and
   * ON CONFLICT DO NOTHING have to hold.
   */
  describe('under concurrency', () => {
    const event = (paymentRef: string, type = 'payment.confirmed') => ({ event: type, id: `evt_sbx_${randomBytes(8).toString('hex')}`, data: { id: paymentRef, amount: 10.5 } });
    /** Every callback at once, each answer as it settled: `fulfilled` is the route's 200. */
    const postAll = (bodies: unknown[]) => Promise.allSettled(bodies.map((body) => post(body)));
    const answered = (settled: PromiseSettledResult<WebhookIntakeResult>[]) =>
      settled.map((s) => {
        if (s.status === 'rejected') throw s.reason;
        return s.value;
      });
    const outcomes = async (paymentId: string) =>
      (await ctx.dataSource.query(`SELECT outcome FROM payment_events WHERE payment_id = $1 ORDER BY created_at`, [paymentId])).map((r: { outcome: string }) => r.outcome);
    const deliveries = async (paymentId: string) =>
      (await ctx.dataSource.query(`SELECT event_type FROM webhook_deliveries WHERE payment_id = $1`, [paymentId])).map((r: { event_type: string }) => r.event_type);

    it('applies one of 20 identical events posted at once, and queues one forward', async () => {
      const payment = await ctx.newPayment(shop.merchant.id);
      const body = event(payment.id);
      const settled = await postAll(Array(20).fill(body));
      expect(settled.map((r) => r.status)).toEqual(Array(20).fill('fulfilled'));
      const answers = answered(settled);
      expect(answers.filter((r) => r.duplicate === false)).toHaveLength(1);
      expect(await outcomes(payment.id)).toEqual(['applied']);
      expect(await deliveries(payment.id)).toEqual(['payment.confirmed']);
    });

    it('stores one of 20 identical events for an unknown payment (no row lock to queue behind)', async () => {
      const body = event(`sbx_${randomBytes(6).toString('hex')}`);
      const settled = await postAll(Array(20).fill(body));
      expect(settled.map((r) => r.status)).toEqual(Array(20).fill('fulfilled'));
      const answers = answered(settled);
      expect(answers.filter((r) => r.duplicate === false)).toEqual([expect.objectContaining({ matched: false })]);
      expect(await ctx.dataSource.query(`SELECT 1 FROM payment_events WHERE provider_event_id = $1`, [body.id])).toHaveLength(1);
    });

    it('applies one of 20 different confirmations racing for one payment; the rest are history', async () => {
      const payment = await ctx.newPayment(shop.merchant.id);
      const answers = answered(await postAll(Array.from({ length: 20 }, () => event(payment.id))));
      expect(answers.filter((r) => r.applied === true)).toHaveLength(1);
      expect(await outcomes(payment.id)).toEqual(['applied', ...Array(19).fill('ignored')]);
      expect(await deliveries(payment.id)).toHaveLength(1);
    });

    it('ends a confirmation and an expiry racing paid, whichever comes first: money is never ignored (docs/api.md, States)', async () => {
      const payment = await ctx.newPayment(shop.merchant.id);
      const answers = answered(await postAll([event(payment.id, 'payment.confirmed'), event(payment.id, 'payment.expired')]));
      const applied = answers
        .filter((r) => r.applied === true)
        .map((r) => r.status)
        .sort();
      const [{ status, paid_after_close }] = await ctx.dataSource.query(`SELECT status, paid_after_close FROM payments WHERE id = $1`, [payment.id]);
      expect(status).toBe('paid');
      if (applied.length === 1) {
        // The confirmation came first: the expiry is ignored, and only the confirmation is forwarded.
        expect({ applied, paid_after_close, forwarded: await deliveries(payment.id) }).toEqual({ applied: ['paid'], paid_after_close: false, forwarded: ['payment.confirmed'] });
      } else {
        // The expiry came first: the Pix that followed is money received after close, and both are forwarded.
        expect({ applied, paid_after_close, forwarded: (await deliveries(payment.id)).sort() }).toEqual({
          applied: ['expired', 'paid'],
          paid_after_close: true,
          forwarded: ['payment.confirmed', 'payment.expired'],
        });
      }
    });
  });
});

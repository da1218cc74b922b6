import type { TestingModule } from '@nestjs/testing';
import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import type { RefundReport } from '../../src/domain/provider-event';
import { PaymentRepository } from '../../src/payments/payment.repository';
import { RefundRepository } from '../../src/payments/refunds/refund.repository';
import { EventWriter } from '../../src/payments/lifecycle/event-writer';
import { PaymentEventRepository } from '../../src/payments/lifecycle/payment-event.repository';
import { PaymentEventsService } from '../../src/payments/lifecycle/payment-events.service';
import { RefundEventsService } from '../../src/payments/refunds/refund-events.service';
import { MediumContext, newMediumContext } from '../helpers/medium';

/**
 * The refunds' bookkeeping against a real database (PaymentEventsService and RefundEventsService):
 * a refund settles once however many times and ways it is reported, at once or in a race; what the
 * merchant hears is written with it; refunds made outside the gateway are recorded; reports that
 * would return more than was paid, or money of a payment never paid, moves nothing.
 */
describe('refund bookkeeping (PaymentEventsService)', () => {
  let ctx: MediumContext;
  let units: TestingModule;
  beforeAll(async () => {
    ctx = await newMediumContext();
    units = await ctx.module([
      PaymentEventsService,
      EventWriter,
      RefundEventsService,
      RefundRepository,
      PaymentRepository,
      PaymentEventRepository,
      WebhookDeliveryRepository,
      GatewayMetrics,
    ]);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const events = () => units.get(PaymentEventsService);
  const paidPayment = async (amountCents = 1000) => {
    const shop = await ctx.newMerchant({ webhookUrl: 'https://shop.example/pix' });
    return ctx.newPayment(shop.merchant.id, { status: 'paid', amountCents, paidAt: new Date() });
  };
  const report = (providerRefundId: string, status: RefundReport['status'], amountCents: number, externalOrigin: 'psp' | 'med' = 'psp'): RefundReport => ({
    providerRefundId,
    status,
    amountCents,
    externalOrigin,
    failureReason: status === 'failed' ? 'Conta encerrada' : null,
  });
  const tell = (payment: { id: string; provider: string }, eventId: string, refund: RefundReport) =>
    events().apply(
      payment.provider,
      { eventId, type: `refund.${refund.status}`, paymentRef: payment.id, amountCents: refund.amountCents, occurredAt: new Date(), refund },
      { source: 'webhook', requestId: 'req-test', payload: {} },
    );
  const stateOf = async (paymentId: string) => {
    const [payment] = await ctx.dataSource.query(`SELECT status, refunded_amount_cents::int AS refunded FROM payments WHERE id = $1`, [paymentId]);
    const refunds = await ctx.dataSource.query(`SELECT origin, status, amount_cents::int AS amount FROM refunds WHERE payment_id = $1 ORDER BY created_at, id`, [paymentId]);
    const deliveries = await ctx.dataSource.query(`SELECT event_type FROM webhook_deliveries WHERE payment_id = $1 ORDER BY created_at, id`, [paymentId]);
    return { ...payment, refunds, forwards: deliveries.map((d: { event_type: string }) => d.event_type) };
  };

  it("settles the gateway's refund once, whether the callback, a repeat of it or reconciliation tells it", async () => {
    const payment = await paidPayment(1000);
    const refund = await ctx.newRefund(payment, { amountCents: 400, providerRefundId: 'D1' });
    expect(await tell(payment, 'cb-1', report('D1', 'succeeded', 400))).toMatchObject({ kind: 'recorded', outcome: 'applied' });
    expect(await tell(payment, 'cb-1', report('D1', 'succeeded', 400))).toEqual({ kind: 'duplicate' });
    const reconciled = await events().applyRefundOutcome(payment, refund.id, { status: 'succeeded', providerRefundId: 'D1', amountCents: 400, failureReason: null }, 'req-rec');
    expect(reconciled).toMatchObject({ kind: 'recorded', outcome: 'ignored', note: 'The refund is already succeeded.' });
    expect(await stateOf(payment.id)).toEqual({
      status: 'partially_refunded',
      refunded: 400,
      refunds: [{ origin: 'merchant', status: 'succeeded', amount: 400 }],
      forwards: ['refund.succeeded', 'payment.partially_refunded'],
    });
  });

  it('settles a refund once when two reports of it race (different event ids)', async () => {
    const payment = await paidPayment(1000);
    await ctx.newRefund(payment, { amountCents: 1000, providerRefundId: 'D2' });
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => tell(payment, `race-${i}`, report('D2', 'succeeded', 1000))));
    expect(results.filter((r) => r.kind === 'recorded' && r.outcome === 'applied')).toHaveLength(1);
    expect(await stateOf(payment.id)).toMatchObject({ status: 'refunded', refunded: 1000, forwards: ['refund.succeeded', 'payment.refunded'] });
  });

  it('gives a failed refund its amount back and tells the merchant', async () => {
    const payment = await paidPayment(1000);
    await ctx.newRefund(payment, { amountCents: 1000, providerRefundId: 'D3' });
    await tell(payment, 'cb-3', report('D3', 'failed', 1000));
    expect(await stateOf(payment.id)).toEqual({ status: 'paid', refunded: 0, refunds: [{ origin: 'merchant', status: 'failed', amount: 1000 }], forwards: ['refund.failed'] });
    expect(await units.get(RefundRepository).heldCents(ctx.dataSource.manager, payment.id)).toBe(0);
  });

  it('recognises a refund whose answer was lost by the gateway id the PSP names, and takes the PSP id from the report', async () => {
    const payment = await paidPayment(1000);
    const refund = await ctx.newRefund(payment, { amountCents: 300 });
    await tell(payment, 'cb-4', { ...report('D4', 'succeeded', 300), gatewayRefundId: refund.id });
    expect(await ctx.dataSource.query(`SELECT id, provider_refund_id FROM refunds WHERE payment_id = $1`, [payment.id])).toEqual([{ id: refund.id, provider_refund_id: 'D4' }]);
  });

  it('never takes a MED return of the same amount for a refund whose answer was lost', async () => {
    const payment = await paidPayment(1000);
    const mine = await ctx.newRefund(payment, { amountCents: 300 });
    expect(await tell(payment, 'med-1', { ...report('M1', 'succeeded', 300, 'med'), gatewayRefundId: null })).toMatchObject({ outcome: 'applied' });
    await tell(payment, 'cb-5', { ...report('D5', 'failed', 300), gatewayRefundId: mine.id });
    expect(await stateOf(payment.id)).toEqual({
      status: 'partially_refunded',
      refunded: 300,
      refunds: [
        { origin: 'merchant', status: 'failed', amount: 300 },
        { origin: 'med', status: 'succeeded', amount: 300 },
      ],
      forwards: ['refund.succeeded', 'payment.partially_refunded', 'refund.failed'],
    });
  });

  it('defers reports a PSP cannot attribute while a refund of the gateway awaits its PSP id, and reads that refund back now', async () => {
    const payment = await paidPayment(1000);
    const mine = await ctx.newRefund(payment, { amountCents: 300 });
    await ctx.dataSource.query(`UPDATE refunds SET next_check_at = now() + interval '1 hour' WHERE id = $1`, [mine.id]);
    expect(await tell(payment, 'mp-1', report('MP1', 'succeeded', 300))).toEqual({ kind: 'deferred' });
    const [row] = await ctx.dataSource.query(`SELECT next_check_at <= now() AS due FROM refunds WHERE id = $1`, [mine.id]);
    expect(row.due).toBe(true);
    // Once the gateway's refund has its PSP id, the same report is told apart: it is the gateway's own.
    await ctx.dataSource.query(`UPDATE refunds SET provider_refund_id = 'MP1' WHERE id = $1`, [mine.id]);
    expect(await tell(payment, 'mp-1', report('MP1', 'succeeded', 300))).toMatchObject({ kind: 'recorded', outcome: 'applied' });
    expect(await stateOf(payment.id)).toMatchObject({ refunded: 300, refunds: [{ origin: 'merchant', status: 'succeeded', amount: 300 }] });
  });

  it("derives the refunded amount from the succeeded refunds, whatever the payment's stored total says", async () => {
    const payment = await paidPayment(1000);
    await ctx.newRefund(payment, { amountCents: 400, providerRefundId: 'D6' });
    await ctx.dataSource.query(`UPDATE payments SET refunded_amount_cents = 900 WHERE id = $1`, [payment.id]);
    expect(await tell(payment, 'cb-6', report('D6', 'succeeded', 400))).toMatchObject({ outcome: 'applied' });
    expect(await stateOf(payment.id)).toMatchObject({ status: 'partially_refunded', refunded: 400 });
  });

  it('records refunds made outside the gateway with their origin, and refuses reports of more than was paid', async () => {
    const payment = await paidPayment(1000);
    await tell(payment, 'out-1', report('P1', 'succeeded', 600, 'med'));
    expect(await tell(payment, 'out-2', report('P2', 'succeeded', 600))).toMatchObject({ outcome: 'amount_mismatch' });
    expect(await stateOf(payment.id)).toEqual({
      status: 'partially_refunded',
      refunded: 600,
      refunds: [{ origin: 'med', status: 'succeeded', amount: 600 }],
      forwards: ['refund.succeeded', 'payment.partially_refunded'],
    });
  });

  it('moves nothing for a payment never paid, and keeps reports of an unknown payment as unmatched', async () => {
    const shop = await ctx.newMerchant();
    const pending = await ctx.newPayment(shop.merchant.id);
    expect(await tell(pending, 'np-1', report('X1', 'succeeded', 100))).toMatchObject({ outcome: 'ignored' });
    expect(await stateOf(pending.id)).toMatchObject({ status: 'pending', refunded: 0, refunds: [] });
    expect(await tell({ id: 'pay_nobody', provider: 'sandbox' }, 'np-2', report('X2', 'succeeded', 100))).toMatchObject({ outcome: 'unmatched', paymentId: null });
  });
});

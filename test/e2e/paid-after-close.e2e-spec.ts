import { signSandboxPayload } from '../../src/common/sandbox-wire/sandbox-signature';
import { RefundReconciliation } from '../../src/payments/refunds/refund-reconciliation';
import { eventually } from '../helpers/eventually';
import { paymentBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { SandboxCharges } from '../helpers/sandbox-charges';
import { describeOn, sandboxAuth, sandboxSettings, startTestApp, TestApp } from '../helpers/test-app';

const WEBHOOK_SECRET = 'sandbox-webhook-secret-for-paid-after-close';
const METRICS_TOKEN = 'metrics-scraper-token-paid-after-close';
const ENV = { SANDBOX_REFUND_DELAY_MS: 'manual', SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET, METRICS_TOKEN };

/** `payments_paid_after_close_total{provider="sandbox"}` as GET /metrics tells it (0 before the series exists). */
async function paidAfterCloseCount(app: TestApp): Promise<number> {
  const res = await http(app.url, 'GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const line = res.text.split('\n').find((l) => l.startsWith('payments_paid_after_close_total{') && l.includes('provider="sandbox"'));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Posts a sandbox callback body as the sandbox PSP does: signed with the account's secret. */
function postCallback(app: TestApp, body: unknown) {
  const raw = JSON.stringify(body);
  return http(app.url, 'POST', '/webhooks/sandbox', {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'x-sandbox-signature': signSandboxPayload(WEBHOOK_SECRET, raw, Math.floor(Date.now() / 1000)) },
  });
}

/**
 * Money received after close (docs/api.md, States): a Pix the PSP reports for a cancelled or expired
 * payment is applied, never ignored. The payment becomes `paid` with `paidAfterClose`, the merchant
 * hears `payment.confirmed` saying so, a metric counts it, and a merchant with `refund_after_close`
 * has it returned in full by the refunds' background job: once, whatever repeats the callback.
 */
describe('money received after close, with the sandbox PSP', () => {
  let t: TestApp;
  let receiver: MerchantReceiver;
  let charges: SandboxCharges;
  let keeper: string;
  let refunder: { id: string; apiKey: string };
  beforeAll(async () => {
    [t, receiver] = await Promise.all([startTestApp({ env: ENV }), MerchantReceiver.start()]);
    charges = new SandboxCharges(sandboxSettings(t.config).baseUrl, sandboxAuth(t.config));
    keeper = (await t.admin.newMerchant({ name: 'Loja Guarda', webhook_url: receiver.url })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), receiver?.close()]);
  });

  const create = async (apiKey: string, amount = 10) => (await t.merchant(apiKey).POST('/v1/payments/create', { body: paymentBody({ amount }) })).data!;
  const cancel = async (apiKey: string, id: string) => {
    const cancelled = await t.merchant(apiKey).POST('/v1/payments/{id}/cancel', { params: { path: { id } } });
    expect(cancelled.data).toMatchObject({ status: 'cancelled', paidAfterClose: false });
  };
  const simulate = (id: string, event: 'payment.confirmed' | 'payment.expired') => t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id } }, body: { event } });
  const read = async (apiKey: string, id: string) => (await t.merchant(apiKey).GET('/v1/payments/{id}', { params: { path: { id } } })).data!;
  const detail = async (id: string) => (await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id } } })).data!;
  const forwardsOf = (paymentId: string) => receiver.received.filter((r) => (r.body?.data?.paymentId ?? r.body?.data?.id) === paymentId);

  it('pays a cancelled payment, flagged paidAfterClose, tells the merchant so, and counts it', async () => {
    const before = await paidAfterCloseCount(t);
    const payment = await create(keeper);
    await cancel(keeper, payment.id);
    expect((await simulate(payment.id, 'payment.confirmed')).status).toBe(200);

    const after = await read(keeper, payment.id);
    expect(after).toMatchObject({ status: 'paid', paidAfterClose: true, paidAmount: 10, refundedAmount: 0, paidAt: expect.any(String) });
    expect(after.payer).toMatchObject({ name: 'Ana Souza' });
    expect(after.pix.endToEndId).toMatch(/^E\d{8}/);

    await receiver.waitUntil(() => forwardsOf(payment.id).length >= 2, 15_000, 'payment.cancelled and payment.confirmed');
    expect(forwardsOf(payment.id).map((r) => r.body)).toEqual([
      expect.objectContaining({ event: 'payment.cancelled', data: expect.objectContaining({ status: 'cancelled', paidAfterClose: false }) }),
      expect.objectContaining({ event: 'payment.confirmed', data: expect.objectContaining({ id: payment.id, status: 'paid', paidAfterClose: true }) }),
    ]);

    const seen = await detail(payment.id);
    expect(seen.events.map((e) => [e.type, e.outcome, e.from_status, e.to_status])).toEqual([
      ['payment.cancelled', 'applied', 'pending', 'cancelled'],
      ['payment.confirmed', 'applied', 'cancelled', 'paid'],
    ]);
    expect(seen.events[1]!.note).toMatch(/after the payment was cancelled/);
    // Without refund_after_close the money waits for the operator: nothing is refunded on its own.
    expect(seen).toMatchObject({ paidAfterClose: true, can_refund: true, refunds: [] });
    expect(await paidAfterCloseCount(t)).toBe(before + 1);
  });

  it('pays an expired payment the same way; a payment paid while open says paidAfterClose: false', async () => {
    const late = await create(keeper);
    await simulate(late.id, 'payment.expired');
    expect(await read(keeper, late.id)).toMatchObject({ status: 'expired', paidAfterClose: false });
    await simulate(late.id, 'payment.confirmed');
    expect(await read(keeper, late.id)).toMatchObject({ status: 'paid', paidAfterClose: true });

    const onTime = await create(keeper);
    expect(onTime.paidAfterClose).toBe(false);
    await simulate(onTime.id, 'payment.confirmed');
    expect(await read(keeper, onTime.id)).toMatchObject({ status: 'paid', paidAfterClose: false });
    await receiver.waitUntil(() => forwardsOf(onTime.id).length >= 1 && forwardsOf(late.id).length >= 2, 15_000, 'the confirmations');
    expect(forwardsOf(onTime.id)[0]!.body.data.paidAfterClose).toBe(false);
    expect(forwardsOf(late.id).map((r) => [r.body.event, r.body.data.paidAfterClose])).toEqual([
      ['payment.expired', false],
      ['payment.confirmed', true],
    ]);
    const listed = (await t.merchant(keeper).GET('/v1/payments', { params: { query: { externalId: late.externalId } } })).data!;
    expect(listed.items).toEqual([expect.objectContaining({ id: late.id, paidAfterClose: true })]);
  });

  it("lists them for the operator: the admin list's paid_after_close filter", async () => {
    const late = await create(keeper);
    await cancel(keeper, late.id);
    await simulate(late.id, 'payment.confirmed');
    const onTime = await create(keeper);
    const list = (paidAfterClose: string) =>
      http(t.url, 'GET', `/admin/api/payments?paid_after_close=${paidAfterClose}&limit=100`, { headers: { authorization: `Bearer ${t.config.adminApiToken.reveal()}` } });
    const flagged = (await list('true')).body.data.items as { id: string; paidAfterClose: boolean }[];
    expect(flagged.map((p) => p.id)).toContain(late.id);
    expect(flagged.every((p) => p.paidAfterClose)).toBe(true);
    const others = (await list('false')).body.data.items as { id: string; paidAfterClose: boolean }[];
    expect(others.map((p) => p.id)).toContain(onTime.id);
    expect(others.map((p) => p.id)).not.toContain(late.id);
    const bad = await list('maybe');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toEqual([{ field: 'paid_after_close', message: 'paid_after_close must be true or false' }]);
  });

  it('lets the admin API set refund_after_close, refusing what is not a boolean', async () => {
    refunder = await t.admin.newMerchant({ name: 'Loja Devolve', webhook_url: receiver.url, refund_after_close: true });
    const created = (await t.admin.POST('/admin/api/merchants', { body: { name: 'Loja Ajuste' } })).data!;
    expect(created.refund_after_close).toBe(false);
    const bad = await t.admin.PATCH('/admin/api/merchants/{id}', { params: { path: { id: created.id } }, body: { refund_after_close: 'yes' as unknown as boolean } });
    expect(bad.status).toBe(400);
    expect(bad.error?.details).toMatchObject({ fields: [{ field: 'refund_after_close', message: 'refund_after_close must be true or false' }] });
    const changed = await t.admin.PATCH('/admin/api/merchants/{id}', { params: { path: { id: created.id } }, body: { refund_after_close: true } });
    expect(changed.data).toMatchObject({ refund_after_close: true });
    expect((await t.admin.GET('/admin/api/merchants/{id}', { params: { path: { id: created.id } } })).data).toMatchObject({ refund_after_close: true });
    expect((await t.admin.GET('/admin/api/merchants/{id}', { params: { path: { id: refunder.id } } })).data).toMatchObject({ refund_after_close: true });
  });

  it('with refund_after_close, refunds it in full through the background job, once, however often the callback comes', async () => {
    const before = await paidAfterCloseCount(t);
    const payment = await create(refunder.apiKey, 12);
    await cancel(refunder.apiKey, payment.id);
    await simulate(payment.id, 'payment.confirmed');
    // The very callback the sandbox posted, twice more at once, and another report of the same Pix.
    const [{ payload }] = await t.dataSource.query(`SELECT payload FROM payment_events WHERE payment_id = $1 AND type = 'payment.confirmed'`, [payment.id]);
    const again = await Promise.all([postCallback(t, payload), postCallback(t, payload)]);
    expect(again.map((r) => r.body.data.duplicate)).toEqual([true, true]);
    await simulate(payment.id, 'payment.confirmed');

    // Queued with the confirmation, not sent in the callback's request: the job sends it.
    const queued = await detail(payment.id);
    expect(queued).toMatchObject({ status: 'paid', paidAfterClose: true, can_refund: false });
    expect(queued.refunds).toEqual([expect.objectContaining({ origin: 'merchant', amount: 12, status: 'pending', providerRefundId: null })]);
    const refundId = queued.refunds[0]!.id;

    const job = t.app.get(RefundReconciliation);
    await Promise.all([job.runOnce(), job.runOnce()]);
    expect((await detail(payment.id)).refunds).toEqual([expect.objectContaining({ id: refundId, status: 'pending', providerRefundId: expect.any(String) })]);
    expect((await charges.settleRefund(refundId, 'DEVOLVIDO')).status).toBe(200);

    expect(await read(refunder.apiKey, payment.id)).toMatchObject({ status: 'refunded', refundedAmount: 12, paidAfterClose: true });
    expect((await t.merchant(refunder.apiKey).GET('/v1/payments/{id}/refunds', { params: { path: { id: payment.id } } })).data).toEqual([
      expect.objectContaining({ id: refundId, origin: 'merchant', amount: 12, status: 'succeeded' }),
    ]);
    // Every event the payment will ever send is queued by now: exactly these, each once.
    const deliveries = await t.dataSource.query(`SELECT event_type FROM webhook_deliveries WHERE payment_id = $1 ORDER BY event_type`, [payment.id]);
    expect(deliveries.map((d: { event_type: string }) => d.event_type)).toEqual(['payment.cancelled', 'payment.confirmed', 'payment.refunded', 'refund.succeeded']);
    await receiver.waitUntil(() => forwardsOf(payment.id).length >= 4, 15_000, 'four forwards');
    expect(forwardsOf(payment.id).find((r) => r.body.event === 'payment.confirmed')!.body.data).toMatchObject({ paidAfterClose: true });
    expect(forwardsOf(payment.id).find((r) => r.body.event === 'refund.succeeded')!.body.data).toMatchObject({ id: refundId, amount: 12 });
    expect(await paidAfterCloseCount(t)).toBe(before + 1);
  });
});

/**
 * The same report through two gateway processes on one PostgreSQL at once, and both processes' refund
 * jobs at once: the payment's row lock decides the confirmation once, so one refund is queued, sent
 * and reported.
 */
describeOn('postgres', 'two processes share one database')('money received after close across two gateway processes', () => {
  let a: TestApp;
  let b: TestApp;
  let receiver: MerchantReceiver;
  let merchant: { id: string; apiKey: string };
  beforeAll(async () => {
    receiver = await MerchantReceiver.start();
    a = await startTestApp({ db: 'postgres', env: ENV });
    b = await startTestApp({ env: { ...ENV, DATABASE_URL: a.config.databaseUrl!.reveal(), SANDBOX_BASE_URL: `${a.url}/sandbox` } });
    merchant = await a.admin.newMerchant({ name: 'Loja Dupla', webhook_url: receiver.url, refund_after_close: true });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
  });

  it('one refund for a Pix reported through both processes at once, however often', async () => {
    // A charge whose own callback goes nowhere: the test tells the gateway instead, through both processes.
    const charges = new SandboxCharges(sandboxSettings(a.config).baseUrl, sandboxAuth(a.config));
    const { payment, chargeId } = await charges.lostCharge(a, merchant.id);
    expect((await b.merchant(merchant.apiKey).POST('/v1/payments/{id}/cancel', { params: { path: { id: payment.id } } })).data).toMatchObject({ status: 'cancelled' });
    const paid = await charges.call('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    expect(paid.status).toBe(202);
    const { charge } = paid.body;
    const callback = {
      event: 'payment.confirmed',
      id: paid.body.eventId,
      created_at: new Date().toISOString(),
      data: { id: charge.id, txid: charge.txid, amount: 10.5, status: charge.status, pix: charge.pix },
    };
    const answers = await Promise.all([a, b, a, b, a, b].map((app) => postCallback(app, callback)));
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(answers.filter((r) => r.body.data.duplicate === false)).toEqual([
      expect.objectContaining({ body: expect.objectContaining({ data: expect.objectContaining({ applied: true }) }) }),
    ]);

    await Promise.all([a.app.get(RefundReconciliation).runOnce(), b.app.get(RefundReconciliation).runOnce()]);
    const refunds = await a.dataSource.query(`SELECT id, amount_cents, origin, provider_refund_id FROM refunds WHERE payment_id = $1`, [payment.id]);
    expect(refunds).toEqual([expect.objectContaining({ amount_cents: '1050', origin: 'merchant', provider_refund_id: expect.any(String) })]);
    expect((await charges.settleRefund(refunds[0].id, 'DEVOLVIDO')).status).toBe(200);
    // The charge's callbacks go nowhere: the refund's settlement is read back by both jobs at once.
    await a.dataSource.query(`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE payment_id = $1`, [payment.id]);
    await Promise.all([a.app.get(RefundReconciliation).runOnce(), b.app.get(RefundReconciliation).runOnce()]);
    const settled = await eventually(
      () => a.dataSource.query(`SELECT status, refunded_amount_cents, paid_after_close FROM payments WHERE id = $1`, [payment.id]),
      (rows: { status: string }[]) => rows[0]?.status === 'refunded',
    );
    expect(settled).toEqual([{ status: 'refunded', refunded_amount_cents: '1050', paid_after_close: true }]);
    const deliveries = await a.dataSource.query(`SELECT event_type FROM webhook_deliveries WHERE payment_id = $1 ORDER BY event_type`, [payment.id]);
    expect(deliveries.map((d: { event_type: string }) => d.event_type)).toEqual(['payment.cancelled', 'payment.confirmed', 'payment.refunded', 'refund.succeeded']);
  });
});

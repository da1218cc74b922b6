import { randomBytes } from 'node:crypto';
import { RefundReconciliation } from '../../src/payments/refunds/refund-reconciliation';
import { ReconciliationService } from '../../src/payments/payment-reconciliation.service';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { chargeRequest, pixApiAccountBody } from '../helpers/factories';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { OrphanCanceller } from '../../src/payments/routing/orphan-canceller';
import { PaymentAttemptRepository } from '../../src/payments/routing/payment-attempt.repository';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Refunds and cancellation over HTTP through a Pix API account at the fake PSP (which checks every
 * request against the BCB's OpenAPI): devoluções asked for, settled by callback or read back,
 * refused, retried after a lost answer, made outside the gateway (the bank's portal, MED), and
 * charges cancelled, paid meanwhile included. What merchants receive is checked event by event.
 */
describe('refunds and cancellation through a Pix API account', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  let receiver: MerchantReceiver;
  let merchantKey: string;
  let accountId: string;
  beforeAll(async () => {
    [t, psp, receiver] = await Promise.all([startTestApp(), startPixApiPsp(), MerchantReceiver.start()]);
    const account = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp) })).data!;
    accountId = account.id;
    expect((await t.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path: { id: account.id } } })).status).toBe(200);
    merchantKey = (await t.admin.newMerchant({ name: 'Loja Devolve', webhook_url: receiver.url, provider_accounts: [account.id] })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t.close(), psp.close(), receiver.close()]);
  });
  afterEach(() => {
    psp.reset();
    psp.assertNoViolations();
  });

  const api = (key = merchantKey) => t.merchant(key);
  const paidPayment = async (amount = 10.5) => {
    const key = randomBytes(8).toString('hex');
    const payment = (
      await api().POST('/v1/payments/create', {
        body: { amount, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: `order-${key}` },
        params: { header: { 'Idempotency-Key': key } },
      })
    ).data!;
    const { pix } = await psp.pay(payment.pix.txid);
    return { payment, endToEndId: pix.endToEndId as string };
  };
  const refund = (paymentId: string, body: { amount?: number; reason?: string } = {}, key = randomBytes(8).toString('hex')) =>
    api().POST('/v1/payments/{id}/refunds', { params: { path: { id: paymentId }, header: { 'Idempotency-Key': key } }, body });
  const read = async (id: string) => (await api().GET('/v1/payments/{id}', { params: { path: { id } } })).data!;
  const refundsOf = async (id: string) => (await api().GET('/v1/payments/{id}/refunds', { params: { path: { id } } })).data!;
  const devolucaoOf = (endToEndId: string, refundId: string) => {
    const list = (psp.pixes.get(endToEndId)!.devolucoes ?? []) as { id: string; valor: string; status: string }[];
    return list.find((d) => d.id === refundId.replace('_', ''));
  };
  const forwardsOf = (paymentId: string) => receiver.received.filter((r) => (r.body?.data?.paymentId ?? r.body?.data?.id) === paymentId).map((r) => r.body.event as string);
  const devolucaoRequests = () => psp.requests.filter((r) => r.path.includes('/devolucao/')).length;

  it('refunds part, then the rest: pending until the callback, then succeeded, and the merchant hears each step once', async () => {
    const { payment, endToEndId } = await paidPayment(10.5);
    const part = await refund(payment.id, { amount: 3.5, reason: 'Item devolvido' });
    expect(part.status).toBe(201);
    expect(part.body.provider).toBe('pix-api');
    expect(part.data).toMatchObject({ paymentId: payment.id, amount: 3.5, status: 'pending', origin: 'merchant', reason: 'Item devolvido', failureReason: null });
    expect(devolucaoOf(endToEndId, part.data!.id)).toMatchObject({ valor: '3.50', status: 'EM_PROCESSAMENTO' });

    await psp.refundSettles(endToEndId, part.data!.id.replace('_', ''), 'DEVOLVIDO');
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 3.5 });
    expect(await refundsOf(payment.id)).toEqual([expect.objectContaining({ id: part.data!.id, status: 'succeeded' })]);

    // The rest, by default: what is left.
    const rest = await refund(payment.id);
    expect(rest.data).toMatchObject({ amount: 7, status: 'pending' });
    await psp.refundSettles(endToEndId, rest.data!.id.replace('_', ''), 'DEVOLVIDO');
    expect(await read(payment.id)).toMatchObject({ status: 'refunded', refundedAmount: 10.5 });

    await receiver.waitUntil(() => forwardsOf(payment.id).length >= 5, 15_000, 'five forwards');
    expect(forwardsOf(payment.id).sort()).toEqual(['payment.confirmed', 'payment.partially_refunded', 'payment.refunded', 'refund.succeeded', 'refund.succeeded']);
    const succeeded = receiver.received.find((r) => r.body.event === 'refund.succeeded' && r.body.data.id === part.data!.id)!;
    expect(succeeded.body.data).toMatchObject({
      amount: 3.5,
      status: 'succeeded',
      origin: 'merchant',
      payment: { id: payment.id, status: 'partially_refunded', refundedAmount: 3.5 },
    });

    // Nothing is left: another refund is 422, and a refunded payment cannot be refunded at all.
    const more = await refund(payment.id, { amount: 0.01 });
    expect(more.status).toBe(409);
    expect(more.error?.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('counts pending refunds in what is available, and gives a failed refund its amount back', async () => {
    const { payment, endToEndId } = await paidPayment(10);
    const first = await refund(payment.id, { amount: 6 });
    const over = await refund(payment.id, { amount: 5 });
    expect(over.status).toBe(422);
    expect(over.error).toMatchObject({ code: 'REFUND_EXCEEDS_AVAILABLE', details: { available: 4 } });
    await psp.refundSettles(endToEndId, first.data!.id.replace('_', ''), 'NAO_REALIZADO', { motivo: 'Conta do pagador encerrada' });
    expect((await api().GET('/v1/refunds/{id}', { params: { path: { id: first.data!.id } } })).data).toMatchObject({
      status: 'failed',
      failureReason: 'Conta do pagador encerrada',
    });
    expect(await read(payment.id)).toMatchObject({ status: 'paid', refundedAmount: 0 });
    expect((await refund(payment.id, { amount: 10 })).status).toBe(201);
    await receiver.waitUntil(() => forwardsOf(payment.id).includes('refund.failed'), 15_000, 'refund.failed');
  });

  it('replays the same key and body, refuses the same key with another body, and never asks the PSP twice', async () => {
    const { payment } = await paidPayment();
    const key = randomBytes(8).toString('hex');
    const first = await refund(payment.id, { amount: 1 }, key);
    const before = devolucaoRequests();
    const again = await refund(payment.id, { amount: 1 }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data!.id).toBe(first.data!.id);
    expect(devolucaoRequests()).toBe(before);
    expect((await refund(payment.id, { amount: 2 }, key)).error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // The same key and body for another payment is another request, never the first one's replay.
    const other = await paidPayment();
    expect((await refund(other.payment.id, { amount: 1 }, key)).error?.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('answers bad input with a 4xx envelope, storing nothing and calling no PSP', async () => {
    const { payment } = await paidPayment();
    const pending = (
      await api().POST('/v1/payments/create', {
        body: { amount: 5, currency: 'BRL', recipientDocument: '12345678909', recipientName: 'Ana', externalId: 'order-pending' },
        params: { header: { 'Idempotency-Key': randomBytes(8).toString('hex') } },
      })
    ).data!;
    const other = (await t.admin.newMerchant({ name: 'Outra loja' })).apiKey;
    const before = { devolucoes: devolucaoRequests(), refunds: Number((await t.dataSource.query('SELECT count(*) AS n FROM refunds'))[0].n) };
    const cases: [Promise<{ status: number; error?: { code: string } }>, number, string][] = [
      [refund(payment.id, { amount: 0 }), 400, 'VALIDATION_ERROR'],
      [refund(payment.id, { amount: -1 }), 400, 'VALIDATION_ERROR'],
      [refund(payment.id, { amount: 1.234 }), 400, 'VALIDATION_ERROR'],
      [refund(payment.id, { reason: 'x'.repeat(141) }), 400, 'VALIDATION_ERROR'],
      [refund(payment.id, { amount: 11 }), 422, 'REFUND_EXCEEDS_AVAILABLE'],
      [refund(pending.id, { amount: 1 }), 409, 'PAYMENT_STATE_CONFLICT'],
      [refund('pay_doesnotexist000000000000', { amount: 1 }), 404, 'NOT_FOUND'],
      [refund('not-an-id', { amount: 1 }), 404, 'NOT_FOUND'],
      [
        t.merchant(other).POST('/v1/payments/{id}/refunds', { params: { path: { id: payment.id }, header: { 'Idempotency-Key': 'k-other' } }, body: { amount: 1 } }),
        404,
        'NOT_FOUND',
      ],
      [
        http(t.url, 'POST', `/v1/payments/${payment.id}/refunds`, { headers: { 'x-merchant-key': merchantKey }, body: { amount: 1 } }).then((r) => ({
          status: r.status,
          error: r.body.error,
        })),
        400,
        'VALIDATION_ERROR',
      ],
      [
        api().POST('/v1/payments/{id}/refunds', { params: { path: { id: payment.id }, header: { 'Idempotency-Key': 'k-extra' } }, body: { amount: 1, extra: true } as never }),
        400,
        'VALIDATION_ERROR',
      ],
    ];
    for (const [index, [call, status, code]] of cases.entries()) {
      const res = await call;
      expect({ index, status: res.status, code: res.error?.code }).toEqual({ index, status, code });
    }
    expect(devolucaoRequests()).toBe(before.devolucoes);
    expect(Number((await t.dataSource.query('SELECT count(*) AS n FROM refunds'))[0].n)).toBe(before.refunds);
    // A key refused for its content is free again.
    expect((await refund(payment.id, { amount: 1 }, 'k-extra')).status).toBe(201);
  });

  it("answers a refund the PSP refuses outright with 502 and the PSP's reason; the amount stays available", async () => {
    const { payment } = await paidPayment(10);
    psp.fail({ kind: 'problem', status: 400, path: '/devolucao/', method: 'PUT' });
    const refused = await refund(payment.id, { amount: 10 });
    expect(refused.status).toBe(502);
    expect(refused.error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream_status: 400, details: { provider_message: expect.any(String) } });
    expect(refused.body.provider).toBe('pix-api');
    expect((await refundsOf(payment.id))[0]).toMatchObject({ status: 'failed', failureReason: expect.any(String) });
    const again = await refund(payment.id, { amount: 10 });
    expect(again.status).toBe(201);
  });

  it('answers a retry of a refused refund with the refund as it failed, never asking again once less is left', async () => {
    const { payment } = await paidPayment(10);
    const key = randomBytes(8).toString('hex');
    psp.fail({ kind: 'problem', status: 400, path: '/devolucao/', method: 'PUT' });
    expect((await refund(payment.id, {}, key)).status).toBe(502);
    expect((await refund(payment.id, { amount: 3 })).status).toBe(201);
    const before = devolucaoRequests();
    const retried = await refund(payment.id, {}, key);
    expect(retried.data).toMatchObject({ amount: 10, status: 'failed' });
    expect(devolucaoRequests()).toBe(before);
  });

  it('retries a refund whose answer was lost with the same key: the same devolução, never a second', async () => {
    const { payment, endToEndId } = await paidPayment(10);
    const key = randomBytes(8).toString('hex');
    psp.fail({ kind: 'status', status: 503, path: '/devolucao/', method: 'PUT', afterHandling: true });
    const lost = await refund(payment.id, { amount: 4 }, key);
    expect(lost.status).toBe(502);
    // The money is held while the PSP may have it: nothing more than what is left.
    expect((await refund(payment.id, { amount: 7 })).status).toBe(422);
    const retried = await refund(payment.id, { amount: 4 }, key);
    expect(retried.status).toBe(201);
    expect((psp.pixes.get(endToEndId)!.devolucoes as unknown[]).length).toBe(1);
    expect(devolucaoOf(endToEndId, retried.data!.id)).toMatchObject({ valor: '4.00' });
  });

  it('asks again, by reconciliation and with the same id, for a refund whose answer was lost and never retried', async () => {
    const { payment, endToEndId } = await paidPayment(10);
    psp.fail({ kind: 'status', status: 503, path: '/devolucao/', method: 'PUT', afterHandling: true });
    expect((await refund(payment.id, { amount: 5 })).status).toBe(502);
    const [pending] = await refundsOf(payment.id);
    expect(pending).toMatchObject({ status: 'pending', amount: 5 });
    await t.dataSource.query(`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE id = $1`, [pending!.id]);
    expect(await t.app.get(RefundReconciliation).runOnce()).toMatchObject({ checked: 1, failed: 0 });
    expect((psp.pixes.get(endToEndId)!.devolucoes as unknown[]).length).toBe(1);
    await psp.refundSettles(endToEndId, pending!.id.replace('_', ''), 'DEVOLVIDO');
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 5 });
  });

  it('reads back a pending refund the PSP never called back about (reconciliation)', async () => {
    const { payment, endToEndId } = await paidPayment(10);
    const made = (await refund(payment.id, { amount: 2 })).data!;
    await psp.refundSettles(endToEndId, made.id.replace('_', ''), 'DEVOLVIDO', { postCallback: false });
    await t.dataSource.query(`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE id = $1`, [made.id]);
    expect(await t.app.get(RefundReconciliation).runOnce()).toMatchObject({ settled: 1 });
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 2 });
    // A second run finds nothing due.
    expect(await t.app.get(RefundReconciliation).runOnce()).toMatchObject({ checked: 0 });
  });

  it('records refunds made outside the gateway, at the bank or by MED, with their origin', async () => {
    const { payment, endToEndId } = await paidPayment(10);
    await psp.refundOutside(endToEndId, 300, 'ORIGINAL');
    await psp.refundOutside(endToEndId, 700, 'MED_FRAUDE');
    expect(await read(payment.id)).toMatchObject({ status: 'refunded', refundedAmount: 10 });
    expect((await refundsOf(payment.id)).map((r) => [r.origin, r.amount, r.status])).toEqual([
      ['psp', 3, 'succeeded'],
      ['med', 7, 'succeeded'],
    ]);
  });

  it('finds, by reconciliation, a payment paid and partly returned at the bank whose callbacks were all lost', async () => {
    const created = (
      await api().POST('/v1/payments/create', {
        body: { amount: 10, currency: 'BRL', recipientDocument: '12345678909', recipientName: 'Ana', externalId: 'order-lost' },
        params: { header: { 'Idempotency-Key': randomBytes(8).toString('hex') } },
      })
    ).data!;
    const { pix } = await psp.pay(created.pix.txid, { postCallback: false });
    await psp.refundOutside(pix.endToEndId as string, 250, 'ORIGINAL', { postCallback: false });
    await t.dataSource.query(`UPDATE payments SET created_at = now() - interval '1 day' WHERE id = $1`, [created.id]);
    await t.app.get(ReconciliationService).runOnce();
    expect(await read(created.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 2.5 });
    expect(await refundsOf(created.id)).toEqual([expect.objectContaining({ origin: 'psp', amount: 2.5, status: 'succeeded' })]);
    // Another run changes nothing.
    await t.dataSource.query(`UPDATE payments SET next_reconcile_at = NULL WHERE id = $1`, [created.id]);
    await t.app.get(ReconciliationService).runOnce();
    expect(await refundsOf(created.id)).toHaveLength(1);
  });

  it('cancels a pending payment at the PSP; again is 200; a paid one is 409', async () => {
    const created = (
      await api().POST('/v1/payments/create', {
        body: { amount: 5, currency: 'BRL', recipientDocument: '12345678909', recipientName: 'Ana', externalId: 'order-cancel' },
        params: { header: { 'Idempotency-Key': randomBytes(8).toString('hex') } },
      })
    ).data!;
    const cancel = (id: string) => api().POST('/v1/payments/{id}/cancel', { params: { path: { id } } });
    const cancelled = await cancel(created.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.data).toMatchObject({ id: created.id, status: 'cancelled' });
    expect(psp.charges.get(created.pix.txid)!.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect((await cancel(created.id)).status).toBe(200);
    const { payment } = await paidPayment();
    expect((await cancel(payment.id)).error?.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it('answers a cancel of a charge paid meanwhile with 409, and the payment is paid', async () => {
    const created = (
      await api().POST('/v1/payments/create', {
        body: { amount: 5, currency: 'BRL', recipientDocument: '12345678909', recipientName: 'Ana', externalId: 'order-race' },
        params: { header: { 'Idempotency-Key': randomBytes(8).toString('hex') } },
      })
    ).data!;
    await psp.pay(created.pix.txid, { postCallback: false });
    const res = await api().POST('/v1/payments/{id}/cancel', { params: { path: { id: created.id } } });
    expect(res.status).toBe(409);
    expect(res.error?.code).toBe('PAYMENT_STATE_CONFLICT');
    expect(await read(created.id)).toMatchObject({ status: 'paid', paidAmount: 5 });
  });

  it('refunds in full an orphan charge a payer paid anyway, with origin routing, shown to the operator and not to the merchant', async () => {
    const { payment } = await paidPayment(10);
    // An ambiguous attempt left a charge at the account, and a payer paid it.
    const acting = await t.app.get(AccountResolver).byId(accountId);
    const orphan = await acting.adapter.createCharge(acting.account, chargeRequest(acting.notificationUrl, { amountCents: 1000 }));
    const { pix } = await psp.pay(orphan.txid, { postCallback: false });
    await t.app.get(PaymentAttemptRepository).record({
      paymentId: payment.id,
      merchantId: (await t.dataSource.query('SELECT merchant_id FROM payments WHERE id = $1', [payment.id]))[0].merchant_id,
      accountId,
      provider: 'pix-api',
      environment: 'sandbox',
      txid: orphan.txid,
      providerPaymentId: null,
      outcome: 'ambiguous',
      upstreamStatus: 503,
      error: 'HTTP 503',
      durationMs: 30,
      at: new Date(Date.now() - 1000),
      orphanDueAt: new Date(Date.now() - 1000),
    });
    await t.app.get(OrphanCanceller).runOnce();
    expect(await t.app.get(RefundReconciliation).runOnce()).toMatchObject({ checked: 1 });
    expect((psp.pixes.get(pix.endToEndId as string)!.devolucoes as { valor: string }[]).map((d) => d.valor)).toEqual(['10.00']);

    const detail = (await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id: payment.id } } })).data!;
    expect(detail.refunds).toEqual([expect.objectContaining({ origin: 'routing', amount: 10, status: 'pending', txid: orphan.txid, attemptId: expect.any(String) })]);
    // The payment itself is untouched, and the merchant's list shows only its own refunds.
    expect(detail).toMatchObject({ status: 'paid', refundedAmount: 0 });
    expect(await refundsOf(payment.id)).toEqual([]);
  });

  it("never shows another merchant's refund", async () => {
    const { payment } = await paidPayment();
    const made = (await refund(payment.id, { amount: 1 })).data!;
    const other = (await t.admin.newMerchant({ name: 'Curiosa' })).apiKey;
    expect((await t.merchant(other).GET('/v1/refunds/{id}', { params: { path: { id: made.id } } })).status).toBe(404);
    expect((await t.merchant(other).GET('/v1/payments/{id}/refunds', { params: { path: { id: payment.id } } })).status).toBe(404);
  });
});

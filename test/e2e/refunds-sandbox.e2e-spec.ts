import { randomBytes } from 'node:crypto';
import { paymentBody } from '../helpers/factories';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { SandboxCharges } from '../helpers/sandbox-charges';
import { sandboxAuth, sandboxSettings, startTestApp, TestApp } from '../helpers/test-app';

/**
 * Refunds and cancellation over HTTP with the built-in simulated PSP, its refunds settled when the
 * test says (SANDBOX_REFUND_DELAY_MS=manual): partial, failed, whole; the merchant's signed
 * webhooks, each once; refunds made outside (MED); the dashboard's own refund and cancel calls.
 */
describe('refunds and cancellation with the sandbox PSP', () => {
  let t: TestApp;
  let receiver: MerchantReceiver;
  let charges: SandboxCharges;
  let merchantKey: string;
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  beforeAll(async () => {
    [t, receiver] = await Promise.all([startTestApp({ env: { SANDBOX_REFUND_DELAY_MS: 'manual' } }), MerchantReceiver.start({ secret })]);
    charges = new SandboxCharges(sandboxSettings(t.config).baseUrl, sandboxAuth(t.config));
    merchantKey = (await t.admin.newMerchant({ name: 'Loja Sandbox', webhook_url: receiver.url, webhook_signing_secret: secret })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), receiver?.close()]);
  });

  const api = () => t.merchant(merchantKey);
  const paid = async (amount = 10) => {
    const payment = (await api().POST('/v1/payments/create', { body: paymentBody({ amount }) })).data!;
    await t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id: payment.id } }, body: { event: 'payment.confirmed' } });
    return payment;
  };
  const refund = (id: string, body: { amount?: number; reason?: string } = {}) => api().POST('/v1/payments/{id}/refunds', { params: { path: { id } }, body });
  const read = async (id: string) => (await api().GET('/v1/payments/{id}', { params: { path: { id } } })).data!;
  const forwardsOf = (paymentId: string) => receiver.received.filter((r) => (r.body?.data?.paymentId ?? r.body?.data?.id) === paymentId);

  it('refunds part, a refund that fails, then the rest; the merchant gets each signed event once', async () => {
    const payment = await paid(10);
    const part = (await refund(payment.id, { amount: 2.5, reason: 'Troca' })).data!;
    expect(part).toMatchObject({ status: 'pending', amount: 2.5, origin: 'merchant' });
    expect((await charges.settleRefund(part.id, 'DEVOLVIDO')).status).toBe(200);
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 2.5 });

    const failing = (await refund(payment.id, { reason: 'sandbox:fail' })).data!;
    expect(failing).toMatchObject({ amount: 7.5, status: 'pending' });
    await charges.settleRefund(failing.id);
    expect((await api().GET('/v1/refunds/{id}', { params: { path: { id: failing.id } } })).data).toMatchObject({ status: 'failed', failureReason: expect.any(String) });

    const rest = (await refund(payment.id)).data!;
    expect(rest.amount).toBe(7.5);
    await charges.settleRefund(rest.id, 'DEVOLVIDO');
    expect(await read(payment.id)).toMatchObject({ status: 'refunded', refundedAmount: 10 });

    await receiver.waitUntil(() => forwardsOf(payment.id).length >= 6, 15_000, 'six forwards');
    expect(
      forwardsOf(payment.id)
        .map((r) => r.body.event)
        .sort(),
    ).toEqual(['payment.confirmed', 'payment.partially_refunded', 'payment.refunded', 'refund.failed', 'refund.succeeded', 'refund.succeeded']);
    // Verified by the receiver with the standardwebhooks library, as a merchant would.
    expect(forwardsOf(payment.id).map((r) => r.verified)).toEqual(Array(6).fill(true));
  });

  it('records a MED return made at the PSP with origin med, and it moves the payment like any refund', async () => {
    const payment = await paid(10);
    expect((await charges.refundOutside(payment.providerPaymentId!, 'med', '4.00')).status).toBe(201);
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 4 });
    expect((await api().GET('/v1/payments/{id}/refunds', { params: { path: { id: payment.id } } })).data).toEqual([
      expect.objectContaining({ origin: 'med', amount: 4, status: 'succeeded' }),
    ]);
  });

  it('cancels a pending payment; again is 200; a paid one is 409', async () => {
    const pending = (await api().POST('/v1/payments/create', { body: paymentBody() })).data!;
    const cancel = (id: string) => api().POST('/v1/payments/{id}/cancel', { params: { path: { id } } });
    expect((await cancel(pending.id)).data).toMatchObject({ status: 'cancelled' });
    expect((await cancel(pending.id)).status).toBe(200);
    const payment = await paid();
    const refused = await cancel(payment.id);
    expect(refused.status).toBe(409);
    expect(refused.error?.code).toBe('PAYMENT_STATE_CONFLICT');
  });

  it("lets the operator refund and cancel from the dashboard's API, and shows refunds on the payment", async () => {
    const payment = await paid(8);
    expect((await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id: payment.id } } })).data).toMatchObject({ can_refund: true, can_cancel: false });
    const made = await t.admin.POST('/admin/api/payments/{id}/refunds', {
      params: { path: { id: payment.id }, header: { 'Idempotency-Key': randomBytes(8).toString('hex') } },
      body: { amount: 3 },
    });
    expect(made.status).toBe(201);
    const detail = (await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id: payment.id } } })).data!;
    expect(detail.refunds).toEqual([
      expect.objectContaining({ id: made.data!.id, origin: 'merchant', status: 'pending', provider: 'sandbox', providerRefundId: expect.any(String) }),
    ]);

    const pending = (await api().POST('/v1/payments/create', { body: paymentBody() })).data!;
    expect((await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id: pending.id } } })).data).toMatchObject({ can_refund: false, can_cancel: true });
    expect((await t.admin.POST('/admin/api/payments/{id}/cancel', { params: { path: { id: pending.id } } })).data).toMatchObject({ status: 'cancelled' });
  });
});

import { randomBytes } from 'node:crypto';
import { type MercadoPagoFake, startMercadoPagoFake } from '../fakes/mercadopago';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Refunds and cancellation over HTTP through a Mercado Pago account at its fake: refunds in process
 * until Mercado Pago settles them (told by its notification, read back), one approved at once, one
 * refused, one made at Mercado Pago's portal, and cancels.
 */
describe('refunds and cancellation through a Mercado Pago account', () => {
  let t: TestApp;
  let mp: MercadoPagoFake;
  let receiver: MerchantReceiver;
  let merchantKey: string;
  beforeAll(async () => {
    [t, mp, receiver] = await Promise.all([startTestApp(), startMercadoPagoFake(), MerchantReceiver.start()]);
    const account = await t.admin.POST('/admin/api/provider-accounts', {
      body: {
        name: 'Mercado Pago (devoluções)',
        provider: 'mercadopago',
        base_url: mp.url,
        credentials: { access_token: mp.accessToken, webhook_secret: mp.webhookSecret, ca_pem: mp.caPem },
      },
    });
    merchantKey = (await t.admin.newMerchant({ name: 'Loja MP', webhook_url: receiver.url, provider_accounts: [account.data!.id] })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), mp?.close(), receiver?.close()]);
  });
  afterEach(() => {
    mp.reset();
    mp.assertNoViolations();
  });

  const api = () => t.merchant(merchantKey);
  const create = async (amount = 10) => {
    const key = randomBytes(8).toString('hex');
    return (
      await api().POST('/v1/payments/create', {
        body: { amount, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: `order-${key}`, recipientEmail: 'ana@example.org' },
        params: { header: { 'Idempotency-Key': key } },
      })
    ).data!;
  };
  const paid = async (amount = 10) => {
    const payment = await create(amount);
    mp.approve(payment.providerPaymentId!);
    expect((await mp.notify(payment.providerPaymentId!)).status).toBe(200);
    return payment;
  };
  const refund = (id: string, body: { amount?: number; reason?: string } = {}) => api().POST('/v1/payments/{id}/refunds', { params: { path: { id } }, body });
  const read = async (id: string) => (await api().GET('/v1/payments/{id}', { params: { path: { id } } })).data!;
  const refundsOf = async (id: string) => (await api().GET('/v1/payments/{id}/refunds', { params: { path: { id } } })).data!;
  const forwardsOf = (paymentId: string) => receiver.received.filter((r) => (r.body?.data?.paymentId ?? r.body?.data?.id) === paymentId).map((r) => r.body.event as string);

  it('refunds part in process until Mercado Pago settles it, then the rest approved at once; the merchant hears each step once', async () => {
    const payment = await paid(10);
    const part = await refund(payment.id, { amount: 4 });
    expect(part.status).toBe(201);
    expect(part.body.provider).toBe('mercadopago');
    expect(part.data).toMatchObject({ amount: 4, status: 'pending', origin: 'merchant' });
    const [atMp] = mp.refunds.get(Number(payment.providerPaymentId))!;
    mp.settleRefund(payment.providerPaymentId!, atMp!.id, 'approved');
    // Told twice: recorded once.
    await mp.notify(payment.providerPaymentId!);
    await mp.notify(payment.providerPaymentId!);
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 4 });

    mp.nextRefunds('approved');
    const rest = await refund(payment.id);
    expect(rest.data).toMatchObject({ amount: 6, status: 'succeeded' });
    expect(await read(payment.id)).toMatchObject({ status: 'refunded', refundedAmount: 10 });
    // Mercado Pago's notification of the whole refund adds nothing.
    await mp.notify(payment.providerPaymentId!);
    await receiver.waitUntil(() => forwardsOf(payment.id).length >= 5, 15_000, 'five forwards');
    expect(forwardsOf(payment.id).sort()).toEqual(['payment.confirmed', 'payment.partially_refunded', 'payment.refunded', 'refund.succeeded', 'refund.succeeded']);
  });

  it('answers a refund Mercado Pago refuses with 502 and its reason; the amount stays available', async () => {
    const payment = await paid(10);
    mp.fail({ kind: 'status', status: 400, route: /^POST \/v1\/payments\/\d+\/refunds$/ });
    const refused = await refund(payment.id, { amount: 10 });
    expect(refused.status).toBe(502);
    expect(refused.error).toMatchObject({ code: 'UPSTREAM_ERROR', upstream_status: 400, details: { provider_message: expect.any(String) } });
    expect((await refund(payment.id, { amount: 10 })).status).toBe(201);
  });

  it("records a refund made at Mercado Pago's portal, with origin psp", async () => {
    const payment = await paid(10);
    mp.refundAtPortal(payment.providerPaymentId!, 2.5);
    await mp.notify(payment.providerPaymentId!);
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 2.5 });
    expect(await refundsOf(payment.id)).toEqual([expect.objectContaining({ origin: 'psp', amount: 2.5, status: 'succeeded' })]);
  });

  it('cancels a pending payment at Mercado Pago, and refuses to cancel a paid one', async () => {
    const pending = await create(5);
    const res = await api().POST('/v1/payments/{id}/cancel', { params: { path: { id: pending.id } } });
    expect(res.data).toMatchObject({ status: 'cancelled' });
    expect(mp.payments.get(Number(pending.providerPaymentId))!.status).toBe('cancelled');
    const payment = await paid(5);
    expect((await api().POST('/v1/payments/{id}/cancel', { params: { path: { id: payment.id } } })).error?.code).toBe('PAYMENT_STATE_CONFLICT');
  });
});

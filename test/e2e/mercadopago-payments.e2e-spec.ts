import { randomBytes } from 'node:crypto';
import { type MercadoPagoFake, startMercadoPagoFake } from '../fakes/mercadopago';
import { FakeClock } from '../../src/testing/fake-clock';
import { ReconciliationService } from '../../src/payments/payment-reconciliation.service';
import { http } from '../helpers/http';
import { asFrom, expectRateLimited, newAddress } from '../helpers/throttling';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * A merchant whose payments go to a Mercado Pago account at the fake, end to end: the operator
 * makes the account (the fake's host is a private address, which the test environment allows) and
 * routes a merchant to it; the merchant gets Mercado Pago's BR Code; Mercado Pago's signed
 * notification is read back and forwarded once, however often it comes; a forged one changes nothing.
 */
describe('payments through a Mercado Pago provider account', () => {
  let t: TestApp;
  let mp: MercadoPagoFake;
  let receiver: MerchantReceiver;
  let account: { id: string; webhook_url: string };
  let merchantKey: string;
  // The gateway's clock: now, moved forward only by the reconciliation test (last).
  const clock = new FakeClock(new Date());

  beforeAll(async () => {
    [t, mp, receiver] = await Promise.all([startTestApp({ clock, env: { TRUST_PROXY: '1' } }), startMercadoPagoFake(), MerchantReceiver.start()]);
    const created = await t.admin.POST('/admin/api/provider-accounts', {
      body: {
        name: 'Mercado Pago (teste)',
        provider: 'mercadopago',
        base_url: mp.url,
        credentials: { access_token: mp.accessToken, webhook_secret: mp.webhookSecret, ca_pem: mp.caPem },
      },
    });
    expect(created.status).toBe(201);
    account = created.data!;
    merchantKey = (await t.admin.newMerchant({ name: 'Loja MP', webhook_url: receiver.url, provider_accounts: [account.id] })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), mp?.close(), receiver?.close()]);
  });
  afterEach(() => mp.assertNoViolations());

  /** Where Mercado Pago posts: the account's webhook URL, on this app. */
  const notificationUrl = () => `${t.url}${new URL(account.webhook_url).pathname}`;
  const create = (key = randomBytes(8).toString('hex'), extra: Record<string, unknown> = {}) =>
    t.merchant(merchantKey).POST('/v1/payments/create', {
      body: { amount: 10.5, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: `order-${key}`, ...extra },
      params: { header: { 'Idempotency-Key': key } },
    });
  const read = async (id: string) => (await t.merchant(merchantKey).GET('/v1/payments/{id}', { params: { path: { id } } })).data!;
  const eventCount = async (paymentId: string) => Number((await t.dataSource.query('SELECT count(*) AS n FROM payment_events WHERE payment_id = $1', [paymentId]))[0].n);
  const forwardsOf = (paymentId: string) => receiver.received.filter((r) => r.body?.data?.id === paymentId);

  it('refuses a due-date charge with 422 naming due: Mercado Pago has only an expiry date, and is never asked', async () => {
    const asked = mp.requests.length;
    const res = await create(undefined, { due: { date: '2099-12-10' } });
    expect(res.status).toBe(422);
    expect(res.body.provider).toBe('mercadopago');
    expect(res.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field: 'due', message: expect.stringContaining('(mercadopago)') }] } });
    expect(mp.requests.length).toBe(asked);
  });

  it("charges at Mercado Pago and returns its BR Code and id, with the payer's e-mail; a retry with the key makes no second payment", async () => {
    const key = randomBytes(8).toString('hex');
    const first = await create(key, { recipientEmail: 'ana@example.org' });
    expect(first.status).toBe(201);
    const payment = first.data!;
    expect(first.body.provider).toBe('mercadopago');
    expect(payment).toMatchObject({ status: 'pending', provider: 'mercadopago', amount: 10.5, recipient: { email: 'ana@example.org' } });
    const charged = mp.payments.get(Number(payment.providerPaymentId))!;
    expect(charged).toMatchObject({ transaction_amount: 10.5, external_reference: payment.id, notification_url: account.webhook_url, payer: { email: 'ana@example.org' } });
    expect(payment.pix.copyPaste).toBe(charged.point_of_interaction.transaction_data.qr_code);
    const count = mp.payments.size;
    const again = await create(key, { recipientEmail: 'ana@example.org' });
    expect(again.data!.id).toBe(payment.id);
    expect(mp.payments.size).toBe(count);
    // Stored, not only answered: a later read has it too.
    expect((await read(payment.id)).recipient).toMatchObject({ email: 'ana@example.org' });
  });

  it('refuses a recipientEmail that is not an e-mail, or longer than 254 characters', async () => {
    for (const recipientEmail of ['not-an-email', `${'a'.repeat(250)}@example.com`]) {
      const refused = await create(undefined, { recipientEmail });
      expect(refused.status).toBe(400);
      expect(refused.error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(JSON.stringify(refused.error)).toContain('recipientEmail');
    }
  });

  it('without an e-mail, gives Mercado Pago one derived from the payment id, and shows the merchant none', async () => {
    const payment = (await create()).data!;
    expect(payment.recipient.email).toBeNull();
    expect(mp.payments.get(Number(payment.providerPaymentId))!.payer.email).toBe(`${payment.id.toLowerCase()}@payer.example.com`);
  });

  it('applies a signed notification by reading the payment back, forwards one event, and takes repeats and payment.created/updated as one', async () => {
    const payment = (await create()).data!;
    const id = payment.providerPaymentId!;
    // Before the payer pays: a notification that changes nothing.
    const created = await mp.notify(id, { url: notificationUrl(), action: 'payment.created' });
    expect(created.status).toBe(200);
    expect((await read(payment.id)).status).toBe('pending');

    mp.approve(id);
    const first = await mp.notify(id, { url: notificationUrl(), action: 'payment.updated' });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.responseBody!).data).toMatchObject({ duplicate: false, events: [expect.objectContaining({ matched: true, applied: true, status: 'paid' })] });
    expect(await read(payment.id)).toMatchObject({ status: 'paid', paidAt: expect.any(String) });
    for (const action of ['payment.updated', 'payment.created'] as const) {
      const again = await mp.notify(id, { url: notificationUrl(), action, tsUnit: 'milliseconds' });
      expect(again.status).toBe(200);
      expect(JSON.parse(again.responseBody!).data.duplicate).toBe(true);
    }
    expect(await eventCount(payment.id)).toBe(1);
    await receiver.waitUntil(() => forwardsOf(payment.id).length > 0, 15_000, 'the forward');
    // Give a second forward, if one were queued, the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(forwardsOf(payment.id)).toHaveLength(1);
    expect(forwardsOf(payment.id)[0]!.headers['x-webhook-source']).toBe('mercadopago');
    expect(forwardsOf(payment.id)[0]!.body.event).toBe('payment.confirmed');
  });

  it('refuses a forged or unsigned notification with 401 INVALID_SIGNATURE, changing nothing', async () => {
    const payment = (await create()).data!;
    const id = payment.providerPaymentId!;
    mp.approve(id);
    const readsBefore = mp.requests.filter((r) => r.method === 'GET').length;
    for (const secret of ['not-the-secret', null]) {
      const sent = await mp.notify(id, { url: notificationUrl(), secret });
      expect(sent.status).toBe(401);
      expect(JSON.parse(sent.responseBody!).error.code).toBe('INVALID_SIGNATURE');
    }
    const bare = await http(t.url, 'POST', `${new URL(account.webhook_url).pathname}?data.id=${id}&type=payment`, {
      body: { action: 'payment.updated', type: 'payment', data: { id } },
    });
    expect(bare.status).toBe(401);
    // Nothing was read back for them, and the payment waits for Mercado Pago's word.
    expect(mp.requests.filter((r) => r.method === 'GET').length).toBe(readsBefore);
    expect((await read(payment.id)).status).toBe('pending');
    expect(await eventCount(payment.id)).toBe(0);
  });

  it('acknowledges notifications of other topics without acting on them', async () => {
    const sent = await mp.notify('987654321', { url: notificationUrl(), type: 'merchant_order' });
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.responseBody!).data).toMatchObject({ received: true, events: [] });
  });

  it('answers a Mercado Pago that fails with 502 and upstream_status, and a retry with the key charges once', async () => {
    const key = randomBytes(8).toString('hex');
    const before = mp.payments.size;
    mp.fail({ kind: 'created-then-status', status: 503, route: /^POST \/v1\/payments$/ });
    const failed = await create(key);
    expect(failed.status).toBe(502);
    expect(failed.error).toMatchObject({ code: 'PAYMENT_CREATE_FAILED', upstream_status: 503 });
    expect(mp.payments.size).toBe(before + 1);
    const retried = await create(key);
    expect(retried.status).toBe(201);
    expect(mp.payments.size).toBe(before + 1);
    expect(retried.data!.providerPaymentId).toBe(String([...mp.payments.keys()].pop()));

    mp.fail({ kind: 'malformed', route: /^POST \/v1\/payments$/ });
    const malformed = await create();
    expect(malformed.status).toBe(502);
    expect(malformed.error).toMatchObject({ code: 'PAYMENT_CREATE_FAILED' });
  });

  it('counts notifications that prove nothing as failed authentications of their address: ten, then 429 before any read', async () => {
    const payment = (await create()).data!;
    const id = payment.providerPaymentId!;
    const address = newAddress();
    const path = `${new URL(account.webhook_url).pathname}?data.id=${id}&type=payment`;
    const forged = { 'x-request-id': 'forged', 'x-signature': `ts=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` };
    for (let i = 0; i < 10; i++) {
      const res = await http(t.url, 'POST', path, { body: { type: 'payment', data: { id } }, headers: asFrom(address, forged) });
      expect(res.status).toBe(401);
    }
    const reads = mp.requests.length;
    expectRateLimited(await http(t.url, 'POST', path, { body: { type: 'payment', data: { id } }, headers: asFrom(address, forged) }));
    expect(mp.requests.length).toBe(reads);
  });

  it('checks the account with one authenticated read', async () => {
    const check = await t.admin.POST('/admin/api/provider-accounts/{id}/check', { params: { path: { id: account.id } } });
    expect(check.status).toBe(200);
    expect(check.data).toMatchObject({ ok: true });
    expect(mp.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/payment_methods' });
  });

  // Last: it moves the gateway's clock.
  it('finds an approval Mercado Pago never notified (test credentials send none) by reading pending payments back', async () => {
    const payment = (await create()).data!;
    mp.approve(payment.providerPaymentId!);
    clock.set(new Date(Date.now() + (t.config.reconcileAfterSeconds + 1) * 1000));
    await t.app.get(ReconciliationService).runOnce();
    expect(await read(payment.id)).toMatchObject({ status: 'paid' });
    expect(mp.requests.some((r) => r.method === 'GET' && r.path === `/v1/payments/${payment.providerPaymentId}`)).toBe(true);
    await receiver.waitUntil(() => forwardsOf(payment.id).length > 0, 15_000, 'the forward');
    expect(forwardsOf(payment.id)[0]!.body.event).toBe('payment.confirmed');
  });
});

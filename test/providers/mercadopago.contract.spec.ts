import { randomBytes } from 'node:crypto';
import { centsToReais } from '../../src/domain/money';
import type { Account, InboundCallback, ProviderCharge } from '../../src/providers/provider-adapter';
import { WebhookAuthError, WebhookParseError } from '../../src/providers/provider-adapter';
import type { MercadoPagoCredentials } from '../../src/providers/mercadopago/credentials';
import { MercadoPagoAdapter } from '../../src/providers/mercadopago/mercadopago.adapter';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { chargeRequest } from '../helpers/factories';
import { type MercadoPagoFake, type MpFailure, type SentNotification, startMercadoPagoFake } from '../fakes/mercadopago';
import { adapterScenarios, type ScenarioFailure, type ScenarioFeatures, type ScenarioSetup } from './adapter-scenarios';
import { WebhookReceiver } from './webhook-receiver';

/**
 * Mercado Pago chooses its own ids and its BR Code carries the amount; it cancels and refunds (in
 * full or in part, a Pix refund in process for a while), signs its notifications (so nothing is read
 * back before the signature holds), and has no batches, tokens or mutual TLS. Its payments API does
 * not tell a MED return from another refund.
 */
const MERCADO_PAGO_FEATURES: ScenarioFeatures = {
  refund: true,
  cancel: true,
  registerWebhook: false,
  mutualTls: false,
  providerIdIsTxid: false,
  dynamicBrCode: false,
  payerDetails: false,
  batches: false,
  tokens: false,
  readsByTxid: false,
  minLifetimeSeconds: 330,
};
const TIMEOUT_MS = 8_000;
const IMPATIENT_MS = 400;
// A reset of a kept-alive socket is sent once more on a fresh one (the transport's stale-socket retry), so being down takes two.
const FAILURES: Record<ScenarioFailure, MpFailure> = {
  http_503: { kind: 'status', status: 503 },
  problem_400: { kind: 'status', status: 400 },
  timeout: { kind: 'hang', delayMs: 1_500 },
  malformed: { kind: 'malformed' },
  down: { kind: 'reset', times: 2 },
};

interface MercadoPagoFixture extends ScenarioSetup<MercadoPagoCredentials> {
  fake: MercadoPagoFake;
  receiver: WebhookReceiver;
  /** What the fake sent, as the gateway would receive it. */
  inbound(sent: SentNotification): Promise<InboundCallback>;
}

async function startMercadoPago(): Promise<MercadoPagoFixture> {
  let offset = 0;
  const fake = await startMercadoPagoFake();
  const receiver = await new WebhookReceiver().start();
  const transport = new HttpTransport();
  const clock = { now: () => new Date(Date.now() + offset) };
  const adapter = new MercadoPagoAdapter(transport, { clock, timeoutMs: TIMEOUT_MS });
  const impatient = new MercadoPagoAdapter(transport, { clock, timeoutMs: IMPATIENT_MS });
  const settings = { environment: 'sandbox' as const, baseUrl: fake.url, tokenUrl: null, pixKey: null };
  const account: Account<MercadoPagoCredentials> = {
    ...settings,
    id: 'pa_mercadopago_contract',
    provider: 'mercadopago',
    credentials: adapter.parseCredentials({ access_token: fake.accessToken, webhook_secret: fake.webhookSecret, ca_pem: fake.caPem }, settings),
  };
  const inbound = async (sent: SentNotification): Promise<InboundCallback> => {
    const hook = await receiver.next();
    return { method: 'POST', path: '', query: Object.fromEntries(new URL(sent.url).searchParams), headers: hook.headers, rawBody: hook.rawBody };
  };
  let stopped = false;
  return {
    adapter,
    impatient,
    account,
    fake,
    receiver,
    inbound,
    webhookUrl: receiver.url,
    clock: { advance: (ms) => void (offset += ms), reset: () => void (offset = 0) },
    psp: {
      async pay(charge: ProviderCharge) {
        fake.approve(charge.providerPaymentId);
        return { endToEndId: null, callback: await inbound(await fake.notify(charge.providerPaymentId)) };
      },
      async settleRefund(_endToEndId, refund, outcome) {
        const [paymentId, refundId] = refund.providerRefundId.split('/');
        fake.settleRefund(paymentId!, refundId!, outcome === 'succeeded' ? 'approved' : 'rejected');
        return inbound(await fake.notify(paymentId!));
      },
      async refundOutside(charge, _endToEndId, amountCents, how) {
        if (how !== 'portal') throw new Error('Mercado Pago does not tell MED returns apart');
        fake.refundAtPortal(charge.providerPaymentId, centsToReais(amountCents));
        return inbound(await fake.notify(charge.providerPaymentId));
      },
      forge(callback, how) {
        // Whoever forges has no secret: the signed parts change under the same signature.
        if (how === 'amount') {
          const signature = String(callback.headers['x-signature']).replace(/ts=(\d+)/, (_, ts: string) => `ts=${Number(ts) + 1}`);
          return { ...callback, headers: { ...callback.headers, 'x-signature': signature } };
        }
        const other = how === 'other txid' ? String([...fake.payments.keys()][0]) : String(Date.now());
        return { ...callback, query: { ...callback.query, 'data.id': other } };
      },
      chargeCount: () => fake.payments.size,
      fail: (failure) => fake.fail(FAILURES[failure]),
      reset: () => fake.reset(),
      async stop() {
        stopped = true;
        await fake.close();
      },
      assertNoViolations: () => fake.assertNoViolations(),
    },
    async close() {
      transport.close();
      await receiver.close();
      if (!stopped) await fake.close();
    },
  };
}

describe('the Mercado Pago adapter', () => {
  adapterScenarios('Mercado Pago (payments API), against its fake over HTTPS', MERCADO_PAGO_FEATURES, startMercadoPago);

  describe('what only Mercado Pago does', () => {
    let f: MercadoPagoFixture;
    beforeAll(async () => {
      f = await startMercadoPago();
    });
    afterAll(() => f?.close());
    afterEach(() => {
      f.fake.reset();
      f.clock.reset();
      f.fake.assertNoViolations();
    });
    const lookup = (charge: ProviderCharge) => ({ txid: charge.txid, providerPaymentId: charge.providerPaymentId });
    const create = (overrides = {}) => f.adapter.createCharge(f.account, chargeRequest(f.webhookUrl, overrides));

    it('sends a Pix payment with our X-Idempotency-Key, the payer, our payment id and the expiry', async () => {
      const request = chargeRequest(f.webhookUrl, { amountCents: 2599, payer: { document: '12345678909', name: 'Ana Souza', email: 'ana@example.org' } });
      const charge = await f.adapter.createCharge(f.account, request);
      const sent = f.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payments').pop()!;
      expect(sent.headers['x-idempotency-key']).toBe(request.txid);
      expect(sent.headers.authorization).toBe(`Bearer ${f.fake.accessToken}`);
      expect(sent.body).toMatchObject({
        payment_method_id: 'pix',
        transaction_amount: 25.99,
        external_reference: request.paymentId,
        notification_url: f.webhookUrl,
        payer: { email: 'ana@example.org', first_name: 'Ana', last_name: 'Souza', identification: { type: 'CPF', number: '12345678909' } },
      });
      const payment = f.fake.payments.get(Number(charge.providerPaymentId))!;
      expect(charge.copyPaste).toBe(payment.point_of_interaction.transaction_data.qr_code);
    });

    it('derives the payer e-mail from the payment id when the payment has none', async () => {
      const request = chargeRequest(f.webhookUrl);
      await f.adapter.createCharge(f.account, request);
      const sent = f.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payments').pop()!;
      expect((sent.body as { payer: { email: string } }).payer.email).toBe(`${request.paymentId.toLowerCase()}@payer.example.com`);
    });

    it('after "created, then 503", a retry with the same txid gets the payment that was made, not a second one', async () => {
      const request = chargeRequest(f.webhookUrl);
      const before = f.fake.payments.size;
      f.fake.fail({ kind: 'created-then-status', status: 503 });
      await expect(f.adapter.createCharge(f.account, request)).rejects.toMatchObject({ kind: 'http', upstreamStatus: 503, ambiguous: true });
      expect(f.fake.payments.size).toBe(before + 1);
      const retried = await f.adapter.createCharge(f.account, request);
      expect(f.fake.payments.size).toBe(before + 1);
      expect(retried.status).toBe('pending');
    });

    it("finds a payment whose create answer was lost by the gateway's payment id (external_reference), and cancels it so", async () => {
      const request = chargeRequest(f.webhookUrl);
      f.fake.fail({ kind: 'created-then-status', status: 503 });
      await expect(f.adapter.createCharge(f.account, request)).rejects.toMatchObject({ upstreamStatus: 503 });
      const orphan = { txid: request.txid, providerPaymentId: null, paymentId: request.paymentId };
      const found = await f.adapter.getCharge(f.account, orphan);
      expect(found).toMatchObject({ txid: request.txid, status: 'pending', amountCents: request.amountCents });
      expect(f.fake.payments.get(Number(found.providerPaymentId))!.external_reference).toBe(request.paymentId);
      await expect(f.adapter.cancelCharge!(f.account, orphan)).resolves.toMatchObject({ providerPaymentId: found.providerPaymentId, status: 'cancelled' });
      await expect(f.adapter.getCharge(f.account, { ...orphan, paymentId: 'pay_never_made' })).rejects.toMatchObject({ kind: 'http', upstreamStatus: 404 });
      await expect(f.adapter.getCharge(f.account, { txid: request.txid, providerPaymentId: null })).rejects.toBeInstanceOf(TypeError);
    });

    it('reports a refused token as http 401, not ambiguous', async () => {
      f.fake.fail({ kind: 'status', status: 401 });
      await expect(create()).rejects.toMatchObject({ kind: 'http', upstreamStatus: 401, ambiguous: false, providerCode: 'unauthorized' });
    });

    it.each(['seconds', 'milliseconds'] as const)('accepts a notification whose ts is in %s', async (tsUnit) => {
      const charge = await create();
      f.fake.approve(charge.providerPaymentId);
      const callback = await f.inbound(await f.fake.notify(charge.providerPaymentId, { tsUnit, url: f.webhookUrl }));
      await expect(f.adapter.receiveCallback(f.account, callback)).resolves.toEqual([
        expect.objectContaining({ type: 'payment.confirmed', eventId: `mp:${charge.providerPaymentId}:paid` }),
      ]);
    });

    it('gives the same event for payment.created then payment.updated of one status, and none while pending', async () => {
      const charge = await create();
      const pending = await f.inbound(await f.fake.notify(charge.providerPaymentId, { action: 'payment.created', url: f.webhookUrl }));
      await expect(f.adapter.receiveCallback(f.account, pending)).resolves.toEqual([]);
      f.fake.approve(charge.providerPaymentId);
      const first = await f.adapter.receiveCallback(f.account, await f.inbound(await f.fake.notify(charge.providerPaymentId, { action: 'payment.created', url: f.webhookUrl })));
      const second = await f.adapter.receiveCallback(f.account, await f.inbound(await f.fake.notify(charge.providerPaymentId, { action: 'payment.updated', url: f.webhookUrl })));
      expect(second.map((e) => e.eventId)).toEqual(first.map((e) => e.eventId));
    });

    it('refuses an unsigned notification, one signed with another secret, and one too old', async () => {
      const charge = await create();
      const unsigned = await f.inbound(await f.fake.notify(charge.providerPaymentId, { secret: null, url: f.webhookUrl }));
      await expect(f.adapter.receiveCallback(f.account, unsigned)).rejects.toBeInstanceOf(WebhookAuthError);
      const other = await f.inbound(await f.fake.notify(charge.providerPaymentId, { secret: 'not-the-secret', url: f.webhookUrl }));
      await expect(f.adapter.receiveCallback(f.account, other)).rejects.toBeInstanceOf(WebhookAuthError);
      const fresh = await f.inbound(await f.fake.notify(charge.providerPaymentId, { url: f.webhookUrl }));
      f.clock.advance(6 * 60_000);
      await expect(f.adapter.receiveCallback(f.account, fresh)).rejects.toBeInstanceOf(WebhookAuthError);
    });

    it('acknowledges other topics with no event and no read; refuses a signed notification of a payment it does not hold', async () => {
      const reads = () => f.fake.requests.filter((r) => r.method === 'GET').length;
      const before = reads();
      const order = await f.inbound(await f.fake.notify('123456', { type: 'merchant_order', url: f.webhookUrl }));
      await expect(f.adapter.receiveCallback(f.account, order)).resolves.toEqual([]);
      expect(reads()).toBe(before);
      const charge = await create();
      const unknown = await f.inbound(await f.fake.notify(charge.providerPaymentId, { dataId: '42', url: f.webhookUrl }));
      await expect(f.adapter.receiveCallback(f.account, unknown)).rejects.toBeInstanceOf(WebhookAuthError);
      const notNumeric = await f.inbound(await f.fake.notify(charge.providerPaymentId, { dataId: 'ABC', url: f.webhookUrl }));
      await expect(f.adapter.receiveCallback(f.account, notNumeric)).rejects.toBeInstanceOf(WebhookParseError);
    });

    it.each([
      ['cancelled', 'expired', 'expired', 'payment.expired'],
      ['cancelled', 'by_collector', 'cancelled', 'payment.cancelled'],
      ['rejected', 'rejected_by_bank', 'failed', 'payment.failed'],
      ['in_mediation', 'in_mediation', 'paid', 'payment.confirmed'],
      ['charged_back', 'settled', 'refunded', 'payment.refunded'],
    ] as const)('reads %s (%s) as %s, and notifies %s', async (status, detail, expected, event) => {
      const charge = await create();
      f.fake.setStatus(charge.providerPaymentId, status, detail);
      await expect(f.adapter.getCharge(f.account, lookup(charge))).resolves.toMatchObject({ status: expected });
      const callback = await f.inbound(await f.fake.notify(charge.providerPaymentId, { url: f.webhookUrl }));
      await expect(f.adapter.receiveCallback(f.account, callback)).resolves.toEqual([
        expect.objectContaining({ type: event, eventId: `mp:${charge.providerPaymentId}:${expected}` }),
      ]);
    });

    describe('refunds', () => {
      const paid = async (amountCents = 1050) => {
        const charge = await create({ amountCents });
        f.fake.approve(charge.providerPaymentId);
        return charge;
      };
      const refundId = () => `ref_${randomBytes(12).toString('hex')}`;
      const refundPosts = () => f.fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/refunds'));
      const notified = async (charge: ProviderCharge) =>
        f.adapter.receiveCallback(f.account, await f.inbound(await f.fake.notify(charge.providerPaymentId, { url: f.webhookUrl })));

      it('posts the amount in reais with the refund id as X-Idempotency-Key, asking to see refunds in process', async () => {
        const charge = await paid();
        const id = refundId();
        const refund = await f.adapter.refund!(f.account, { refundId: id, charge: lookup(charge), endToEndId: null, amountCents: 300, reason: 'Item devolvido' });
        const sent = refundPosts().pop()!;
        expect(sent.path).toBe(`/v1/payments/${charge.providerPaymentId}/refunds`);
        expect(sent.headers).toMatchObject({ 'x-idempotency-key': id, 'x-render-in-process-refunds': 'true' });
        expect(sent.body).toEqual({ amount: 3 });
        const made = f.fake.refunds.get(Number(charge.providerPaymentId))![0]!;
        expect(refund).toEqual({ refundId: id, providerRefundId: `${charge.providerPaymentId}/${made.id}`, status: 'pending', amountCents: 300, failureReason: null });
        // Mercado Pago's payment resource leaves a refund in process out; the adapter lists them from the refunds.
        expect(f.fake.view(charge.providerPaymentId).refunds).toEqual([]);
        await expect(f.adapter.getCharge(f.account, lookup(charge))).resolves.toMatchObject({
          status: 'paid',
          refunds: [expect.objectContaining({ status: 'pending', amountCents: 300 })],
        });
        // A bare refund id is read under the lookup's charge.
        await expect(f.adapter.getRefund!(f.account, { refundId: id, endToEndId: null, providerRefundId: String(made.id), charge: lookup(charge) })).resolves.toMatchObject({
          status: 'pending',
        });
      });

      it('after "created, then 503", the same refund id gets the refund that was made, not a second one', async () => {
        const charge = await paid();
        const request = { refundId: refundId(), charge: lookup(charge), endToEndId: null, amountCents: 500, reason: null };
        f.fake.fail({ kind: 'created-then-status', status: 503, route: /^POST .*\/refunds$/ });
        await expect(f.adapter.refund!(f.account, request)).rejects.toMatchObject({ kind: 'http', upstreamStatus: 503, ambiguous: true });
        const again = await f.adapter.refund!(f.account, request);
        const made = f.fake.refunds.get(Number(charge.providerPaymentId))!;
        expect(made).toHaveLength(1);
        expect(again.providerRefundId).toBe(`${charge.providerPaymentId}/${made[0]!.id}`);
      });

      it('tells a refund in process by notification as refund.pending, with the payment still confirmed', async () => {
        const charge = await paid();
        const refund = await f.adapter.refund!(f.account, { refundId: refundId(), charge: lookup(charge), endToEndId: null, amountCents: 200, reason: null });
        const events = await notified(charge);
        expect(events.map((e) => [e.type, e.eventId])).toEqual([
          ['payment.confirmed', `mp:${charge.providerPaymentId}:paid`],
          ['refund.pending', `mp:refund:${refund.providerRefundId}:pending`],
        ]);
      });

      it('tells a payment refunded whole as paid plus its refund, never payment.refunded', async () => {
        const charge = await paid();
        f.fake.nextRefunds('approved');
        const refund = await f.adapter.refund!(f.account, { refundId: refundId(), charge: lookup(charge), endToEndId: null, amountCents: 1050, reason: null });
        expect(refund.status).toBe('succeeded');
        await expect(f.adapter.getCharge(f.account, lookup(charge))).resolves.toMatchObject({
          status: 'refunded',
          refunds: [expect.objectContaining({ status: 'succeeded', amountCents: 1050 })],
        });
        const events = await notified(charge);
        expect(events.map((e) => e.type)).toEqual(['payment.confirmed', 'refund.succeeded']);
      });

      it('tells a chargeback as payment.refunded beside the refunds it has', async () => {
        const charge = await paid();
        f.fake.refundAtPortal(charge.providerPaymentId, 2);
        f.fake.setStatus(charge.providerPaymentId, 'charged_back', 'settled');
        const events = await notified(charge);
        expect(events.map((e) => e.type)).toEqual(['payment.confirmed', 'refund.succeeded', 'payment.refunded']);
      });

      it('never makes a refund while looking for a lost one: a refund id Mercado Pago never saw is http 404', async () => {
        const charge = await paid();
        const lost = { refundId: refundId(), endToEndId: null, providerRefundId: null, charge: lookup(charge) };
        const posts = refundPosts().length;
        // No refund at all: nothing is asked of the refunds endpoint but the list.
        await expect(f.adapter.getRefund!(f.account, lost)).rejects.toMatchObject({ kind: 'http', upstreamStatus: 404, providerCode: 'refund_not_found' });
        expect(refundPosts().length).toBe(posts);
        await f.adapter.refund!(f.account, { refundId: refundId(), charge: lookup(charge), endToEndId: null, amountCents: 100, reason: null });
        await expect(f.adapter.getRefund!(f.account, lost)).rejects.toMatchObject({ kind: 'http', upstreamStatus: 404, providerCode: 'refund_not_found', ambiguous: false });
        expect(f.fake.refunds.get(Number(charge.providerPaymentId))).toHaveLength(1);
      });

      it("finds a lost refund's status as it is now, not as it was first answered", async () => {
        const charge = await paid();
        const request = { refundId: refundId(), charge: lookup(charge), endToEndId: null, amountCents: 400, reason: null };
        const refund = await f.adapter.refund!(f.account, request);
        f.fake.settleRefund(charge.providerPaymentId, refund.providerRefundId.split('/')[1]!, 'approved');
        await expect(f.adapter.getRefund!(f.account, { refundId: request.refundId, endToEndId: null, providerRefundId: null, charge: lookup(charge) })).resolves.toMatchObject({
          providerRefundId: refund.providerRefundId,
          status: 'succeeded',
        });
      });

      it("refuses a refund of a payment not paid, with Mercado Pago's code", async () => {
        const charge = await create();
        await expect(f.adapter.refund!(f.account, { refundId: refundId(), charge: lookup(charge), endToEndId: null, amountCents: 100, reason: null })).rejects.toMatchObject({
          kind: 'http',
          upstreamStatus: 400,
          providerCode: '2063',
          ambiguous: false,
        });
      });
    });

    it("reads notifications back on their own sockets, a few at a time per account, within the notification's budget", async () => {
      const slow = new MercadoPagoAdapter(new HttpTransport(), { callbackTimeoutMs: 600, readBackConcurrency: 1 });
      const charge = await create();
      f.fake.approve(charge.providerPaymentId);
      const callbacks = [];
      for (let i = 0; i < 3; i++) callbacks.push(await f.inbound(await f.fake.notify(charge.providerPaymentId, { url: f.webhookUrl })));
      const reads = () => f.fake.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payments/${charge.providerPaymentId}`).length;
      const before = reads();
      f.fake.reset();
      f.fake.fail({ kind: 'hang', delayMs: 1_500, times: 3, route: /^GET \/v1\/payments\/\d+$/ });
      const settled = await Promise.allSettled(callbacks.map((callback) => slow.receiveCallback(f.account, callback)));
      expect(settled.map((r) => (r.status === 'rejected' ? (r.reason as { kind?: string }).kind : 'fulfilled'))).toEqual(['timeout', 'timeout', 'timeout']);
      // One read at a time: the first held the account's one turn for its budget. A later callback may
      // take the freed turn in the instant before its own budget runs out, but never beside another read.
      expect(reads() - before).toBeGreaterThanOrEqual(1);
      expect(f.fake.peakOpenRequests).toBe(1);
    });

    it('refuses an account whose access token Mercado Pago does not know: unhealthy, and calls are http 401', async () => {
      const wrong = { ...f.account, id: `pa_wrong_${randomBytes(3).toString('hex')}`, credentials: { ...f.account.credentials, accessToken: 'APP_USR-not-the-token' } };
      await expect(f.adapter.check(wrong)).resolves.toMatchObject({ ok: false, detail: expect.stringContaining('401') });
      await expect(f.adapter.createCharge(wrong, chargeRequest(f.webhookUrl))).rejects.toMatchObject({ kind: 'http', upstreamStatus: 401 });
    });
  });
});

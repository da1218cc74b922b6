import { randomBytes } from 'node:crypto';
import { reaisToCents } from '../../src/domain/money';
import { signSandboxPayload } from '../../src/common/sandbox-wire/sandbox-signature';
import { MerchantFixture } from '../helpers/factories';
import { http, HttpResult } from '../helpers/http';
import { sandboxSettings, startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';
import type { components } from '../../web/src/api-types';

const SECRET = 'sandbox-webhook-secret-for-tests';
const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
/** Nothing listens on the discard port: forwards queued here fail, which these specs do not look at. */
const MERCHANT_URL = 'http://127.0.0.1:9/pix-hook';

/** Signed as the sandbox PSP signs (src/common/sandbox-wire/sandbox-signature.ts), so the spec cannot drift from it. */
function signature(raw: string, t = Math.floor(Date.now() / 1000), secret = SECRET): string {
  return signSandboxPayload(secret, raw, t);
}

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
 * The intake route over HTTP: signatures, unknown providers, malformed bodies, its documentation,
 * and the admin payment detail and simulate routes. The intake's rules for what it is told
 * (duplicates, unknown payments, amounts, order, the outbox write, races) are
 * test/medium/webhook-intake.spec.ts.
 */
describe('webhook intake (HTTP)', () => {
  let t: TestApp;
  let shop: MerchantFixture;
  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_WEBHOOK_SECRET: SECRET } });
    shop = await t.newMerchant({ webhookUrl: MERCHANT_URL });
  });
  afterAll(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}, provider = 'sandbox'): Promise<HttpResult> => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    const all = { 'content-type': 'application/json', 'x-sandbox-signature': signature(raw), ...headers };
    // An empty value stands for "header not sent".
    return http(t.url, 'POST', `/webhooks/${provider}`, { rawBody: raw, headers: Object.fromEntries(Object.entries(all).filter(([, value]) => value !== '')) });
  };
  const paymentRow = async (id: string) => (await t.dataSource.query(`SELECT status, paid_at FROM payments WHERE id = $1`, [id]))[0];
  const deliveriesOf = (paymentId: string) => t.dataSource.query(`SELECT * FROM webhook_deliveries WHERE payment_id = $1`, [paymentId]);

  describe('signature (SANDBOX_WEBHOOK_SECRET set)', () => {
    it('accepts a good signature and applies the event', async () => {
      const payment = await t.newPayment(shop.merchant.id);
      const res = await post(sandboxEvent(payment.id));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, provider: 'sandbox', data: { received: true, duplicate: false, matched: true, applied: true, status: 'paid' } });
      expect((await paymentRow(payment.id)).status).toBe('paid');
    });

    it.each([
      ['missing', () => ({ 'x-sandbox-signature': '' })],
      ['wrong', (raw: string) => ({ 'x-sandbox-signature': signature(raw, undefined, 'another-secret') })],
      ['stale (over 300 s old)', (raw: string) => ({ 'x-sandbox-signature': signature(raw, Math.floor(Date.now() / 1000) - 301) })],
      ['for another body', () => ({ 'x-sandbox-signature': signature('{"event":"payment.confirmed"}') })],
      ['garbled', () => ({ 'x-sandbox-signature': 't=abc,v1=zz' })],
    ])('refuses a %s signature with 401 INVALID_SIGNATURE and changes nothing', async (_name, headers) => {
      const payment = await t.newPayment(shop.merchant.id);
      const event = sandboxEvent(payment.id);
      const raw = JSON.stringify(event);
      const res = await post(raw, headers(raw));
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, provider: 'sandbox', error: { code: 'INVALID_SIGNATURE' } });
      expect((await paymentRow(payment.id)).status).toBe('pending');
      expect(await t.dataSource.query(`SELECT 1 FROM payment_events WHERE provider_event_id = $1`, [event.id])).toHaveLength(0);
      expect(await deliveriesOf(payment.id)).toHaveLength(0);
    });
  });

  it('answers 404 NOT_FOUND for a provider the gateway does not run', async () => {
    const res = await post(sandboxEvent('pay_x'), {}, 'acme-pay');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('answers 400 VALIDATION_ERROR for malformed JSON and for a body that is not a sandbox event', async () => {
    const payment = await t.newPayment(shop.merchant.id);
    for (const body of ['{"event": "payment.confirmed",', { ...sandboxEvent(payment.id), event: 'payment.teleported' }, { id: 'evt_1', data: {} }, '[]']) {
      const res = await post(body);
      expect({ body, status: res.status, code: res.body?.error?.code }).toEqual({ body, status: 400, code: 'VALIDATION_ERROR' });
    }
    expect((await paymentRow(payment.id)).status).toBe('pending');
  });

  it('documents intake, payment detail and simulate in the OpenAPI document', async () => {
    const { body } = await http(t.url, 'GET', '/docs/json');
    expect(Object.keys(body.paths['/webhooks/{provider}'].post.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    expect(body.paths['/admin/api/payments/{id}'].get.responses).toHaveProperty('200');
    expect(body.paths['/admin/api/payments/{id}/simulate'].post.responses).toHaveProperty('409');
    expect(Object.keys(body.components.schemas.PaymentDetailView.properties)).toEqual(expect.arrayContaining(['events', 'deliveries', 'status', 'amount']));
  });

  const adminPayment = (id: string) => t.admin.GET('/admin/api/payments/{id}', { params: { path: { id } } });

  describe('GET /admin/api/payments/:id', () => {
    it('returns the payment with its history (oldest first) and deliveries with their attempts', async () => {
      const payment = await t.newPayment(shop.merchant.id);
      const confirmed = await post(sandboxEvent(payment.id));
      await post(sandboxEvent(payment.id, { event: 'payment.cancelled' }));
      const [delivery] = await deliveriesOf(payment.id);
      await t.dataSource.query(
        `INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, url, status_code, latency_ms, error, attempted_at) VALUES ($1, $2, 99, $3, 503, 42, 'HTTP 503', now())`,
        [`att_${randomBytes(12).toString('hex')}`, delivery.id, MERCHANT_URL],
      );

      const res = await adminPayment(payment.id);
      expect(res.status).toBe(200);
      const data = res.data!;
      expect(data).toMatchObject({
        id: payment.id,
        merchantId: shop.merchant.id,
        status: 'paid',
        amount: 10.5,
        provider: 'sandbox',
        paidAt: expect.any(String),
        can_simulate: true,
      });
      expect(data.events).toEqual([
        expect.objectContaining({
          type: 'payment.confirmed',
          source: 'webhook',
          outcome: 'applied',
          from_status: 'pending',
          to_status: 'paid',
          forward: 'queued',
          note: null,
          amount: 10.5,
          request_id: confirmed.body.request_id,
        }),
        expect.objectContaining({ type: 'payment.cancelled', source: 'webhook', outcome: 'ignored', from_status: 'paid', to_status: 'cancelled', note: expect.any(String) }),
      ]);
      expect(data.events[0]!.created_at < data.events[1]!.created_at).toBe(true);
      expect(data.deliveries).toEqual([
        expect.objectContaining({
          id: delivery.id,
          event_id: data.events[0]!.id,
          event_type: 'payment.confirmed',
          request_id: confirmed.body.request_id,
          status: expect.stringMatching(/^(pending|delivered|failed)$/),
        }),
      ]);
      expect(data.deliveries[0]!.attempts).toContainEqual({
        attempt: 99,
        attempted_at: expect.any(String),
        url: MERCHANT_URL,
        status_code: 503,
        latency_ms: 42,
        error: 'HTTP 503',
        response_excerpt: null,
      });
    });

    it('is 404 for an unknown id and 401 without admin credentials', async () => {
      expect((await adminPayment(`pay_${'x'.repeat(24)}`)).error?.code).toBe('NOT_FOUND');
      expect((await adminPayment('not-an-id')).status).toBe(404);
      expect((await http(t.url, 'GET', `/admin/api/payments/pay_${'x'.repeat(24)}`)).status).toBe(401);
    });
  });

  describe('POST /admin/api/payments/:id/simulate', () => {
    type SimulateBody = components['schemas']['SimulateEventDto'];
    const simulate = (id: string, body: SimulateBody) => t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id } }, body });
    /** A charge in the sandbox mounted in the gateway, notifying the gateway's intake as a created payment's does, and its payment. */
    async function sandboxPayment(amount: number) {
      const txid = randomBytes(16).toString('hex');
      const charge = await http(sandboxSettings(t.config).baseUrl, 'POST', '/charges', {
        headers: { ...ADMIN, 'idempotency-key': txid },
        body: {
          txid,
          amount: amount.toFixed(2),
          currency: 'BRL',
          description: null,
          externalId: `order-${txid.slice(0, 8)}`,
          recipient: { document: '12345678909', name: 'Ana Souza' },
          expiresIn: 3600,
          notificationUrl: `${t.config.publicBaseUrl}/webhooks/sandbox`,
        },
      });
      expect(charge.status).toBe(201);
      return t.newPayment(shop.merchant.id, { providerPaymentId: charge.body.id, txid, amountCents: reaisToCents(amount)! });
    }

    it('has the sandbox send a real signed event through /webhooks/sandbox', async () => {
      const payment = await sandboxPayment(10.5);
      const res = await simulate(payment.id, { event: 'payment.confirmed' });
      expect(res.status).toBe(200);
      const { simulation, payment: after } = res.data!;
      expect(simulation).toMatchObject({ delivered: true, status: 200, eventId: expect.any(String) });
      expect(after).toMatchObject({ id: payment.id, status: 'paid' });
      expect(after.events).toEqual([expect.objectContaining({ type: 'payment.confirmed', source: 'webhook', outcome: 'applied', provider_event_id: simulation.eventId })]);
      expect(after.deliveries).toHaveLength(1);
    });

    it('reports an amount the sandbox was told to misstate as a mismatch', async () => {
      const payment = await sandboxPayment(20);
      const res = await simulate(payment.id, { event: 'payment.confirmed', amount: 19.99 });
      expect(res.data!.payment.status).toBe('pending');
      expect(res.data!.payment.events).toEqual([expect.objectContaining({ outcome: 'amount_mismatch', amount: 19.99 })]);
    });

    it('answers 502 UPSTREAM_ERROR with the provider status and code when the sandbox refuses', async () => {
      const orphan = await t.newPayment(shop.merchant.id, { providerPaymentId: `sbx_${randomBytes(8).toString('hex')}` });
      const res = await simulate(orphan.id, { event: 'payment.confirmed' });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ success: false, provider: 'sandbox', error: { code: 'UPSTREAM_ERROR', upstream_status: 404, details: { provider_code: 'NOT_FOUND' } } });
      expect((await adminPayment(orphan.id)).data!.status).toBe('pending');
    });

    it('refuses payments of other providers, unknown events and unknown payments', async () => {
      const foreign = await t.newPayment(shop.merchant.id, { provider: 'acme-pay' });
      const refused = await simulate(foreign.id, { event: 'payment.confirmed' });
      expect(refused.status).toBe(409);
      expect(refused.error).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('cannot simulate') });
      expect((await adminPayment(foreign.id)).data!.can_simulate).toBe(false);
      // An event the API does not know: sent raw, as the typed client would not send it.
      const teleported = await http(t.url, 'POST', `/admin/api/payments/${foreign.id}/simulate`, { body: { event: 'payment.teleported' }, headers: ADMIN });
      expect(teleported.body.error.code).toBe('VALIDATION_ERROR');
      expect((await simulate(`pay_${'x'.repeat(24)}`, { event: 'payment.confirmed' })).status).toBe(404);
    });
  });
});

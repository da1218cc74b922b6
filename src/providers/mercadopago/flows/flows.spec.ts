import { createHmac } from 'node:crypto';
import type { CreateChargeRequest, InboundCallback } from '../../provider-adapter';
import { WebhookAuthError, WebhookParseError } from '../../provider-adapter';
import type { OutboundAnswer } from '../../transport/transport';
import { MP_PAYMENT_STATUSES, MP_REFUND_STATUSES, type MpPayment, mpProblemOf, type MpRefund, readPayment } from '../wire';
import { apiBaseOf, mpFailure, mpRequest } from './api-call';
import { assertSigned, eventOf, notifiedPaymentId, readNotification } from './callback';
import {
  cancelPaymentCall,
  clampLifetime,
  createPaymentCall,
  derivedPayerEmail,
  gatewayStatus,
  MAX_LIFETIME_SECONDS,
  MIN_LIFETIME_SECONDS,
  mpDateTime,
  parseCreatedPayment,
  parsePayment,
  parseSearch,
  readPaymentCall,
  searchPaymentCall,
  toCharge,
} from './payment';
import {
  createRefundCall,
  findRefundCall,
  gatewayRefundStatus,
  listRefundsCall,
  parseProviderRefundId,
  parseRefund,
  parseRefunds,
  readRefundCall,
  toProviderRefund,
} from './refund';

const NOW = new Date('2026-01-15T12:00:00.000Z');
const answer = (status: number, body: unknown): OutboundAnswer => ({ status, headers: {}, text: typeof body === 'string' ? body : JSON.stringify(body) });
const request = (overrides: Partial<CreateChargeRequest> = {}): CreateChargeRequest => ({
  paymentId: 'pay_8f2kQm3Z',
  txid: 'ZZgMmp38r3RLeGeMi5AsaBz8nFn3hwfvP2t',
  amountCents: 1050,
  currency: 'BRL',
  description: 'Pedido 1234',
  externalId: 'order-1234',
  payer: { document: '123.456.789-09', name: 'Ana Maria Souza' },
  expiresInSeconds: 3600,
  notificationUrl: 'https://pix.example.com/webhooks/mercadopago/pa_1',
  ...overrides,
});
const payment = (overrides: Record<string, unknown> = {}) => ({
  id: 1234567890,
  status: 'pending',
  status_detail: 'pending_waiting_transfer',
  transaction_amount: 10.5,
  external_reference: 'pay_8f2kQm3Z',
  date_of_expiration: '2026-01-15T10:00:00.000-03:00',
  date_approved: null,
  date_last_updated: '2026-01-15T09:00:00.000-03:00',
  point_of_interaction: { type: 'PIX', transaction_data: { qr_code: '00020126...6304ABCD', qr_code_base64: 'iVBOR' } },
  ...overrides,
});
const refund = (overrides: Record<string, unknown> = {}) => ({
  id: 9000001,
  payment_id: 1234567890,
  amount: 3,
  status: 'in_process',
  date_created: '2026-01-15T10:00:00.000-03:00',
  source: { id: '123', name: 'Loja', type: 'collector' },
  refund_mode: 'standard',
  unique_sequence_number: null,
  ...overrides,
});

describe('Mercado Pago flows', () => {
  describe('create', () => {
    it('posts a Pix payment with our idempotency key, the payer and the expiry in Brasília time', () => {
      const call = createPaymentCall(request(), NOW);
      expect(call).toMatchObject({ method: 'POST', path: '/v1/payments', headers: { 'x-idempotency-key': 'ZZgMmp38r3RLeGeMi5AsaBz8nFn3hwfvP2t' } });
      expect(call.body).toEqual({
        transaction_amount: 10.5,
        description: 'Pedido 1234',
        payment_method_id: 'pix',
        external_reference: 'pay_8f2kQm3Z',
        notification_url: 'https://pix.example.com/webhooks/mercadopago/pa_1',
        date_of_expiration: '2026-01-15T10:00:00.000-03:00',
        payer: { email: 'pay_8f2kqm3z@payer.example.com', first_name: 'Ana', last_name: 'Maria Souza', identification: { type: 'CPF', number: '12345678909' } },
      });
    });

    it("uses the payment's e-mail when it has one, and a CNPJ (alphanumeric too) as such", () => {
      const body = createPaymentCall(request({ payer: { document: '12.ABC.345/01DE-35', name: 'Loja', email: 'ana@example.org' } }), NOW).body as { payer: unknown };
      expect(body.payer).toEqual({ email: 'ana@example.org', first_name: 'Loja', identification: { type: 'CNPJ', number: '12ABC34501DE35' } });
    });

    it('derives a payer e-mail from the payment id at a reserved domain', () => {
      expect(derivedPayerEmail('pay_ABC')).toBe('pay_abc@payer.example.com');
    });

    it("clamps the lifetime to Mercado Pago's 5 minutes to 30 days", () => {
      expect(clampLifetime(60)).toBe(MIN_LIFETIME_SECONDS);
      expect(clampLifetime(3600)).toBe(3600);
      expect(clampLifetime(90 * 24 * 3600)).toBe(MAX_LIFETIME_SECONDS);
      expect(MIN_LIFETIME_SECONDS).toBeGreaterThanOrEqual(300);
      expect(MAX_LIFETIME_SECONDS).toBeLessThanOrEqual(30 * 24 * 3600);
      const body = createPaymentCall(request({ expiresInSeconds: 10 }), NOW).body as { date_of_expiration: string };
      expect(new Date(body.date_of_expiration).getTime() - NOW.getTime()).toBe(MIN_LIFETIME_SECONDS * 1000);
    });

    it('writes dates as yyyy-MM-ddTHH:mm:ss.SSS-03:00', () => {
      expect(mpDateTime(new Date('2026-03-01T02:30:00.000Z'))).toBe('2026-02-28T23:30:00.000-03:00');
    });

    it('reads the created payment: its id, the BR Code, the amount; no BR Code is malformed', () => {
      const created = parseCreatedPayment(answer(201, payment()));
      expect(created).toMatchObject({ id: '1234567890', status: 'pending', amountCents: 1050, qrCode: '00020126...6304ABCD' });
      expect(parseCreatedPayment(answer(201, payment({ point_of_interaction: {} })))).toMatchObject({ kind: 'malformed' });
    });

    it("turns refusals into http errors with Mercado Pago's cause, and other answers into malformed ones", () => {
      const refusal = parseCreatedPayment(
        answer(400, { message: 'payer.email must be a valid email', error: 'bad_request', status: 400, cause: [{ code: 4050, description: 'payer.email must be a valid email' }] }),
      );
      expect(refusal).toMatchObject({ kind: 'http', upstreamStatus: 400, providerCode: '4050', providerMessage: 'payer.email must be a valid email' });
      expect(parseCreatedPayment(answer(503, 'upstream down'))).toMatchObject({ kind: 'http', upstreamStatus: 503, ambiguous: true });
      expect(parseCreatedPayment(answer(200, 'not json'))).toMatchObject({ kind: 'malformed' });
      expect(parseCreatedPayment(answer(204, ''))).toMatchObject({ kind: 'malformed' });
      expect(parseCreatedPayment(answer(201, { ...payment(), transaction_amount: '10.50' }))).toMatchObject({ kind: 'malformed' });
      expect(parseCreatedPayment(answer(201, { ...payment(), id: null }))).toMatchObject({ kind: 'malformed' });
    });
  });

  describe('read and cancel', () => {
    it('reads and cancels by id', () => {
      expect(readPaymentCall('123')).toEqual({ operation: 'read payment', method: 'GET', path: '/v1/payments/123' });
      expect(cancelPaymentCall('123')).toEqual({ operation: 'cancel payment', method: 'PUT', path: '/v1/payments/123', body: { status: 'cancelled' } });
    });

    it('searches by external_reference, newest first, and keeps only exact matches', () => {
      expect(searchPaymentCall('pay_1').path).toBe('/v1/payments/search?external_reference=pay_1&sort=date_created&criteria=desc');
      const found = parseSearch(answer(200, { paging: { total: 2 }, results: [payment({ id: 2 }), payment({ id: 1, external_reference: 'pay_other' })] }), 'pay_8f2kQm3Z');
      expect((found as MpPayment[]).map((p) => p.id)).toEqual(['2']);
      expect(parseSearch(answer(200, { results: 'nope' }), 'x')).toMatchObject({ kind: 'malformed' });
      expect(parseSearch(answer(500, ''), 'x')).toMatchObject({ kind: 'http', upstreamStatus: 500 });
    });

    it('reads a status it does not know as concluding nothing', () => {
      const read = parsePayment('read payment', answer(200, payment({ status: 'something_new' }))) as MpPayment;
      expect(read.status).toBeNull();
      expect(gatewayStatus({ ...read, expiresAt: null }, NOW)).toBe('pending');
    });

    it.each([
      ['pending', null, 'pending'],
      ['in_process', null, 'pending'],
      ['authorized', null, 'pending'],
      ['approved', 'accredited', 'paid'],
      ['in_mediation', null, 'paid'],
      ['rejected', 'rejected_by_bank', 'failed'],
      ['cancelled', 'by_collector', 'cancelled'],
      ['cancelled', 'expired', 'expired'],
      ['refunded', 'refunded', 'refunded'],
      ['charged_back', 'settled', 'refunded'],
    ] as const)('maps %s (%s) to %s', (status, detail, expected) => {
      expect(gatewayStatus({ status, statusDetail: detail, expiresAt: null }, NOW)).toBe(expected);
    });

    it('maps every status Mercado Pago lists', () => {
      for (const status of MP_PAYMENT_STATUSES) expect(typeof gatewayStatus({ status, statusDetail: null, expiresAt: null }, NOW)).toBe('string');
    });

    it('reads a pending payment past its date_of_expiration as expired', () => {
      const past = new Date(NOW.getTime() - 1000);
      expect(gatewayStatus({ status: 'pending', statusDetail: null, expiresAt: past }, NOW)).toBe('expired');
      expect(gatewayStatus({ status: 'in_process', statusDetail: null, expiresAt: past }, NOW)).toBe('pending');
    });

    it('turns a payment into a charge: the txid it was asked with, paid when approved, and when', () => {
      const read = parsePayment(
        'read payment',
        answer(200, payment({ status: 'approved', date_approved: '2026-01-15T09:30:00.000-03:00', date_of_expiration: null })),
      ) as MpPayment;
      expect(toCharge(read, 'txid-1', NOW)).toEqual({
        providerPaymentId: '1234567890',
        txid: 'txid-1',
        status: 'paid',
        amountCents: 1050,
        copyPaste: '00020126...6304ABCD',
        expiresAt: null,
        paidAt: new Date('2026-01-15T12:30:00.000Z'),
      });
    });
  });

  describe('errors and requests', () => {
    it("reads Mercado Pago's error body", () => {
      expect(mpProblemOf({ message: 'Payment not found', error: 'not_found', status: 404, cause: [{ code: 2000, description: 'Payment not found' }] })).toEqual({
        code: '2000',
        message: 'Payment not found',
      });
      expect(mpProblemOf({ message: 'invalid access token', error: 'unauthorized', status: 401 })).toEqual({ code: 'unauthorized', message: 'invalid access token' });
      expect(mpProblemOf('nope')).toEqual({});
      expect(mpFailure('Mercado Pago: read payment', answer(401, { message: 'invalid token', error: 'unauthorized' })).message).not.toMatch(/Bearer|https?:/);
    });

    it("sends the bearer token to the account's host, Mercado Pago's by default, https only", () => {
      const built = mpRequest({ baseUrl: null }, 'APP_USR-token', createPaymentCall(request(), NOW));
      expect(built.url.href).toBe('https://api.mercadopago.com/v1/payments');
      expect(built.headers).toMatchObject({ authorization: 'Bearer APP_USR-token', 'content-type': 'application/json', 'x-idempotency-key': expect.any(String) });
      expect(apiBaseOf({ baseUrl: 'https://127.0.0.1:8443/' })).toBe('https://127.0.0.1:8443');
      expect(() => apiBaseOf({ baseUrl: 'http://127.0.0.1:8443' })).toThrow(/https/);
    });

    it('reads answers whose payment is malformed as such', () => {
      expect(() => readPayment('x', 200, { id: 1, status: 'pending', transaction_amount: 1, date_of_expiration: 'tomorrow' })).toThrow(/date_of_expiration/);
    });
  });

  describe('notifications', () => {
    const SECRET = 'notification-secret-123';
    const nowSeconds = String(Math.floor(NOW.getTime() / 1000));
    const notification = (overrides: { query?: Record<string, string>; headers?: Record<string, string>; body?: unknown } = {}): InboundCallback => {
      const query = overrides.query ?? { 'data.id': '1234567890', type: 'payment' };
      const manifest = `id:${query['data.id']};request-id:req-9;ts:${nowSeconds};`;
      return {
        method: 'POST',
        path: '',
        query,
        headers: { 'x-request-id': 'req-9', 'x-signature': `ts=${nowSeconds},v1=${createHmac('sha256', SECRET).update(manifest).digest('hex')}`, ...overrides.headers },
        rawBody: Buffer.from(JSON.stringify(overrides.body ?? { action: 'payment.updated', type: 'payment', data: { id: query['data.id'] } })),
      };
    };

    it('reads the topic and data.id from the query, and the request id and signature from the headers', () => {
      expect(readNotification(notification())).toEqual({ topic: 'payment', dataId: '1234567890', requestId: 'req-9', signature: expect.stringMatching(/^ts=/) });
      expect(readNotification({ ...notification(), query: { 'data.id': '1' } }).topic).toBe('payment');
    });

    it('accepts a signed notification and refuses a forged, unsigned or stale one', () => {
      expect(() => assertSigned(readNotification(notification()), SECRET, NOW)).not.toThrow();
      const forged = { ...notification(), query: { 'data.id': '999', type: 'payment' } };
      expect(() => assertSigned(readNotification(forged), SECRET, NOW)).toThrow(WebhookAuthError);
      expect(() => assertSigned(readNotification(notification({ headers: { 'x-signature': '' } })), SECRET, NOW)).toThrow(WebhookAuthError);
      expect(() => assertSigned(readNotification(notification()), SECRET, new Date(NOW.getTime() + 10 * 60_000))).toThrow(WebhookAuthError);
      expect(() => assertSigned(readNotification(notification()), 'another-secret', NOW)).toThrow(WebhookAuthError);
    });

    it('takes only a numeric payment id', () => {
      expect(notifiedPaymentId(readNotification(notification()))).toBe('1234567890');
      expect(() => notifiedPaymentId(readNotification(notification({ query: { type: 'payment' } })))).toThrow(WebhookParseError);
      expect(() => notifiedPaymentId(readNotification(notification({ query: { 'data.id': 'abc', type: 'payment' } })))).toThrow(WebhookParseError);
    });

    it('gives one event per status a payment reaches, named by its id and that status; none while pending', () => {
      const approved = parsePayment('read payment', answer(200, payment({ status: 'approved', date_approved: '2026-01-15T09:30:00.000-03:00' }))) as MpPayment;
      const events = eventOf(approved, toCharge(approved, '', NOW), NOW);
      expect(events).toEqual([
        { eventId: 'mp:1234567890:paid', type: 'payment.confirmed', paymentRef: '1234567890', amountCents: 1050, occurredAt: new Date('2026-01-15T12:30:00.000Z') },
      ]);
      const pending = parsePayment('read payment', answer(200, payment({ date_of_expiration: null }))) as MpPayment;
      expect(eventOf(pending, toCharge(pending, '', NOW), NOW)).toEqual([]);
      const cancelled = parsePayment('read payment', answer(200, payment({ status: 'cancelled' }))) as MpPayment;
      expect(eventOf(cancelled, toCharge(cancelled, '', NOW), NOW)).toEqual([
        expect.objectContaining({ eventId: 'mp:1234567890:cancelled', type: 'payment.cancelled', amountCents: null }),
      ]);
    });
  });

  describe('refunds', () => {
    it('posts the amount in reais with the refund id as the idempotency key, asking to see refunds in process', () => {
      expect(createRefundCall('123', 'ref_abc', 1050)).toEqual({
        operation: 'create refund',
        method: 'POST',
        path: '/v1/payments/123/refunds',
        headers: { 'x-idempotency-key': 'ref_abc', 'x-render-in-process-refunds': 'true' },
        body: { amount: 10.5 },
      });
      expect(readRefundCall('123', '9')).toMatchObject({ method: 'GET', path: '/v1/payments/123/refunds/9', headers: { 'x-render-in-process-refunds': 'true' } });
      expect(listRefundsCall('123')).toMatchObject({ method: 'GET', path: '/v1/payments/123/refunds', headers: { 'x-render-in-process-refunds': 'true' } });
    });

    it('looks for a lost refund with its key and an amount no refund of the payment can have', () => {
      expect(findRefundCall('123', 'ref_abc', 1050)).toMatchObject({
        operation: 'find refund',
        method: 'POST',
        headers: { 'x-idempotency-key': 'ref_abc' },
        body: { amount: 10.51 },
      });
    });

    it("reads a refund's id, amount and status, and refuses one that does not parse", () => {
      expect(parseRefund('create refund', answer(201, refund()))).toMatchObject({ id: '9000001', paymentId: '1234567890', amountCents: 300, status: 'in_process' });
      expect(parseRefund('read refund', answer(200, refund({ status: 'something_new' })))).toMatchObject({ status: null, rawStatus: 'something_new' });
      for (const broken of [refund({ id: null }), refund({ amount: '3.00' }), refund({ status: '' }), refund({ date_created: 'today' }), 'not json']) {
        expect(parseRefund('read refund', answer(200, broken))).toMatchObject({ kind: 'malformed' });
      }
      expect(parseRefunds(answer(200, [refund(), refund({ id: 9000002, status: 'approved' })]))).toHaveLength(2);
      expect(parseRefunds(answer(200, { results: [] }))).toMatchObject({ kind: 'malformed' });
    });

    it("turns refusals into http errors with Mercado Pago's cause; 5xx stay ambiguous", () => {
      const refusal = parseRefund(
        'create refund',
        answer(400, {
          message: 'Payment not approved',
          error: 'bad_request',
          status: 400,
          cause: [{ code: 2063, description: 'The action requested is not valid for the current payment state' }],
        }),
      );
      expect(refusal).toMatchObject({ kind: 'http', upstreamStatus: 400, providerCode: '2063', ambiguous: false });
      expect(parseRefund('create refund', answer(500, 'oops'))).toMatchObject({ kind: 'http', upstreamStatus: 500, ambiguous: true });
    });

    it.each([
      ['approved', 'succeeded'],
      ['in_process', 'pending'],
      ['pending', 'pending'],
      ['authorized', 'pending'],
      ['rejected', 'failed'],
      ['cancelled', 'failed'],
    ] as const)('maps a refund %s to %s', (status, expected) => {
      expect(gatewayRefundStatus({ status })).toBe(expected);
    });

    it('maps every refund status it knows, and concludes nothing from one it does not', () => {
      for (const status of MP_REFUND_STATUSES) expect(typeof gatewayRefundStatus({ status })).toBe('string');
      expect(gatewayRefundStatus({ status: null })).toBe('pending');
    });

    it('names a refund by its payment and its id, and gives a failed one a reason', () => {
      const rejected = parseRefund('read refund', answer(200, refund({ status: 'rejected' }))) as MpRefund;
      expect(toProviderRefund(rejected, '1234567890', 'ref_1')).toEqual({
        refundId: 'ref_1',
        providerRefundId: '1234567890/9000001',
        status: 'failed',
        amountCents: 300,
        failureReason: 'Mercado Pago: refund rejected',
      });
      expect(parseProviderRefundId('1234567890/9000001', null)).toEqual({ paymentId: '1234567890', refundId: '9000001' });
      expect(parseProviderRefundId('9000001', '55')).toEqual({ paymentId: '55', refundId: '9000001' });
      expect(parseProviderRefundId('9000001', null)).toBeNull();
      expect(parseProviderRefundId('../x', '55')).toBeNull();
    });

    it("reads the payment's refunds and lists them on the charge; a partly refunded payment is paid", () => {
      const read = parsePayment(
        'read payment',
        answer(200, payment({ status: 'approved', status_detail: 'partially_refunded', date_of_expiration: null, refunds: [refund({ status: 'approved' })] })),
      ) as MpPayment;
      expect(read.refunds).toHaveLength(1);
      expect(toCharge(read, 't', NOW, read.refunds)).toMatchObject({
        status: 'paid',
        refunds: [{ providerRefundId: '1234567890/9000001', status: 'succeeded', amountCents: 300, externalOrigin: 'psp', failureReason: null }],
      });
      expect(toCharge(read, 't', NOW)).not.toHaveProperty('refunds');
      expect(parsePayment('read payment', answer(200, payment({ refunds: [refund({ id: 'x' })] })))).toMatchObject({ kind: 'malformed' });
      expect((parsePayment('read payment', answer(200, payment({ refunds: null }))) as MpPayment).refunds).toEqual([]);
    });

    const readBack = (overrides: Record<string, unknown>, refunds: Record<string, unknown>[]) => {
      const read = parsePayment('read payment', answer(200, payment({ date_approved: '2026-01-15T09:30:00.000-03:00', date_of_expiration: null, ...overrides }))) as MpPayment;
      const listed = parseRefunds(answer(200, refunds)) as MpRefund[];
      return eventOf(read, toCharge(read, '', NOW, listed), NOW, listed);
    };

    it('tells each refund of a paid payment as a refund event named by the refund and its status', () => {
      const events = readBack({ status: 'approved', status_detail: 'partially_refunded' }, [
        refund({ status: 'approved' }),
        refund({ id: 9000002, amount: 1, status: 'rejected' }),
      ]);
      expect(events).toEqual([
        expect.objectContaining({ type: 'payment.confirmed', eventId: 'mp:1234567890:paid' }),
        {
          eventId: 'mp:refund:1234567890/9000001:succeeded',
          type: 'refund.succeeded',
          paymentRef: '1234567890',
          amountCents: 300,
          occurredAt: new Date('2026-01-15T13:00:00.000Z'),
          refund: { providerRefundId: '1234567890/9000001', status: 'succeeded', amountCents: 300, externalOrigin: 'psp', failureReason: null },
        },
        expect.objectContaining({ type: 'refund.failed', eventId: 'mp:refund:1234567890/9000002:failed', refund: expect.objectContaining({ failureReason: expect.any(String) }) }),
      ]);
    });

    it('tells a payment refunded whole by its refunds, and payment.refunded only without refunds or for a chargeback', () => {
      const whole = [refund({ status: 'approved', amount: 10.5 })];
      expect(readBack({ status: 'refunded', status_detail: 'refunded' }, whole).map((e) => e.type)).toEqual(['payment.confirmed', 'refund.succeeded']);
      expect(readBack({ status: 'refunded', status_detail: 'refunded' }, []).map((e) => e.type)).toEqual(['payment.refunded']);
      expect(readBack({ status: 'charged_back', status_detail: 'settled' }, whole).map((e) => e.type)).toEqual(['payment.confirmed', 'refund.succeeded', 'payment.refunded']);
    });
  });
});

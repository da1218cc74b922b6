import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createStaticPix, hasError } from 'pix-utils';
import { testPki, type TestPki } from '../../src/testing/certificates';

/*
 * A fake of Mercado Pago's payments API over real HTTPS (the test PKI's server certificate), written
 * from Mercado Pago's public pages (docs/providers.md, Mercado Pago), not from the adapter:
 *   POST /v1/payments                      a Pix payment; X-Idempotency-Key required, the same key answers the same payment
 *   GET  /v1/payments/{id}                 the payment, or 404 with Mercado Pago's error body
 *   PUT  /v1/payments/{id}                 {"status":"cancelled"} cancels a pending payment; 400 otherwise
 *   POST /v1/payments/{id}/refunds         {amount?}: a refund of an approved payment, in full or in part, once per
 *                                          X-Idempotency-Key (the same key answers what it answered first); in process
 *                                          until settleRefund() unless nextRefunds() says otherwise; an in-process
 *                                          refund is answered 400 without X-Render-In-Process-Refunds, as Mercado Pago does
 *   GET  /v1/payments/{id}/refunds[/{rid}] its refunds (those in process only with X-Render-In-Process-Refunds)
 *   GET  /v1/payments/search               ?external_reference=…, newest first
 *   GET  /v1/payment_methods               an authenticated read
 * A payment lists its refunds in `refunds` (not those in process), and stays `approved` with `status_detail`
 * `partially_refunded` until refunds add up to its amount, then is `refunded`.
 * Payments are approved, cancelled or expired by the test (approve(), …), refunds made at the portal
 * (refundAtPortal()), and notifications are sent,
 * signed with the application's secret, to the payment's notification_url or any URL (notify()).
 * Failures are injected per request (fail()). What the fake finds wrong in a request it records in
 * `violations` (assertNoViolations() throws them).
 */

export type MpFakeStatus = 'pending' | 'in_process' | 'authorized' | 'approved' | 'rejected' | 'cancelled' | 'refunded' | 'charged_back' | 'in_mediation';

export interface MpFakePayment {
  id: number;
  status: MpFakeStatus;
  status_detail: string;
  transaction_amount: number;
  transaction_amount_refunded: number;
  description: string | null;
  payment_method_id: 'pix';
  payment_type_id: 'bank_transfer';
  currency_id: 'BRL';
  external_reference: string | null;
  notification_url: string | null;
  date_created: string;
  date_last_updated: string;
  date_of_expiration: string;
  date_approved: string | null;
  payer: Record<string, unknown>;
  point_of_interaction: { type: 'PIX'; transaction_data: { qr_code: string; qr_code_base64: string; ticket_url: string } };
}

export type MpFakeRefundStatus = 'approved' | 'in_process' | 'rejected' | 'cancelled';

export interface MpFakeRefund {
  id: number;
  payment_id: number;
  amount: number;
  status: MpFakeRefundStatus;
  date_created: string;
  source: { id: string; name: string; type: 'collector' | 'admin' };
  refund_mode: 'standard';
  adjustment_amount: number;
  unique_sequence_number: string | null;
  reason: string | null;
  metadata: Record<string, unknown>;
}

export interface MpFailure {
  /**
   * `status`: that HTTP status with Mercado Pago's error body; `hang`: no answer for `delayMs`
   * (default 3000), then the normal one (the request was carried out: a lost answer); `malformed`:
   * 200 with a body that is not JSON; `reset`: the socket destroyed without an answer;
   * `created-then-status`: the request is carried out, then answered with `status` (default 503).
   */
  kind: 'status' | 'hang' | 'malformed' | 'reset' | 'created-then-status';
  status?: number;
  delayMs?: number;
  /** How many requests it applies to (default 1). */
  times?: number;
  /** Only requests whose method and path match (`POST /v1/payments`). */
  route?: RegExp;
}

export interface SentNotification {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** The receiver's status, null when it could not be reached. */
  status: number | null;
  responseBody: string | null;
}

export interface NotifyOptions {
  /** Where to post (default: the payment's notification_url). */
  url?: string;
  action?: 'payment.created' | 'payment.updated';
  /** `ts` in seconds (default, as Mercado Pago's pages show it) or milliseconds. */
  tsUnit?: 'seconds' | 'milliseconds';
  /** Sign with another secret (a forgery), or not at all. */
  secret?: string | null;
  /** The topic; `merchant_order` notifications name an order id. */
  type?: 'payment' | 'merchant_order';
  /** Override the signed data.id. */
  dataId?: string;
}

export interface MercadoPagoFake {
  url: string;
  caPem: string;
  accessToken: string;
  webhookSecret: string;
  readonly payments: Map<number, MpFakePayment>;
  readonly refunds: Map<number, MpFakeRefund[]>;
  readonly requests: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: unknown }[];
  /** The most requests open at once (received, not yet answered nor abandoned) since the start or the last reset(). */
  readonly peakOpenRequests: number;
  readonly violations: string[];
  /** The payer pays: approved, date_approved now. */
  approve(id: number | string): MpFakePayment;
  /** Mercado Pago moves the payment to `status` by itself (expiry: cancelled/expired, rejection, chargeback…). */
  setStatus(id: number | string, status: MpFakeStatus, detail?: string): MpFakePayment;
  /** A refund reaches its final status. */
  settleRefund(paymentId: number | string, refundId: number | string, status: 'approved' | 'rejected' | 'cancelled'): MpFakeRefund;
  /** The receiver returns `amount` reais at Mercado Pago's own portal: an approved refund the API did not ask for. */
  refundAtPortal(paymentId: number | string, amount: number): MpFakeRefund;
  /** The status new refunds get when made (default `in_process`: a Pix refund settles later). */
  nextRefunds(status: MpFakeRefundStatus): void;
  /** The payment as Mercado Pago answers it, its refunds listed. */
  view(id: number | string): Record<string, unknown>;
  notify(id: number | string, options?: NotifyOptions): Promise<SentNotification>;
  fail(failure: MpFailure): void;
  reset(): void;
  assertNoViolations(): void;
  close(): Promise<void>;
}

export interface MercadoPagoFakeOptions {
  accessToken?: string;
  webhookSecret?: string;
  pki?: TestPki;
  /** Where "now" comes from for expiry checks of requests. */
  now?: () => number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const DATE_OF_EXPIRATION = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?[+-]\d{2}:\d{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function mpDate(ms: number): string {
  return new Date(ms - 4 * 3600_000).toISOString().replace('Z', '-04:00');
}

function error(status: number, message: string, code: number | string, errorName: string): Record<string, unknown> {
  return { message, error: errorName, status, cause: [{ code, description: message, data: null }] };
}

export async function startMercadoPagoFake(options: MercadoPagoFakeOptions = {}): Promise<MercadoPagoFake> {
  const pki = options.pki ?? testPki();
  const now = options.now ?? (() => Date.now());
  const accessToken = options.accessToken ?? `APP_USR-${randomBytes(12).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? randomBytes(32).toString('hex');
  const payments = new Map<number, MpFakePayment>();
  const byKey = new Map<string, { payment: number; body: string }>();
  const refunds = new Map<number, MpFakeRefund[]>();
  // What a refund's X-Idempotency-Key was first answered with: Mercado Pago answers the key with it again.
  const refundKeys = new Map<string, [number, string]>();
  let newRefundStatus: MpFakeRefundStatus = 'in_process';
  const requests: MercadoPagoFake['requests'] = [];
  const violations: string[] = [];
  let failures: (MpFailure & { left: number })[] = [];
  let nextId = 1_300_000_000 + Math.floor(Math.random() * 1_000_000);
  let nextRefundId = 9_000_000;
  const sockets = new Set<Socket>();
  const held = new Set<NodeJS.Timeout>();

  const qrCode = (id: number, amount: number): string => {
    const pix = createStaticPix({
      merchantName: 'LOJA TESTE MP',
      merchantCity: 'SAO PAULO',
      pixKey: 'b76aa9c2-2ec4-4110-954e-ebfe34f05b61',
      transactionAmount: amount,
      txid: `mpqrinter${id}`,
    });
    if (hasError(pix)) throw new Error(`pix-utils refused the BR Code: ${pix.message}`);
    return pix.toBRCode();
  };

  const find = (id: number | string): MpFakePayment => {
    const payment = payments.get(Number(id));
    if (!payment) throw new Error(`the fake holds no payment ${id}`);
    return payment;
  };

  const touch = (payment: MpFakePayment) => {
    payment.date_last_updated = mpDate(now());
  };

  /** The payment's refunds; those in process only when the request asked for them (X-Render-In-Process-Refunds). */
  const refundsOf = (id: number, inProcess: boolean) => (refunds.get(id) ?? []).filter((r) => inProcess || r.status !== 'in_process');
  const view = (payment: MpFakePayment) => ({ ...payment, refunds: refundsOf(payment.id, false) });

  /** A refund approved: the payment's refunded amount grows, and it is `refunded` once nothing is left. */
  const applyRefund = (payment: MpFakePayment, refund: MpFakeRefund) => {
    payment.transaction_amount_refunded = round2(payment.transaction_amount_refunded + refund.amount);
    if (payment.transaction_amount_refunded >= payment.transaction_amount) {
      payment.status = 'refunded';
      payment.status_detail = 'refunded';
    } else payment.status_detail = 'partially_refunded';
    touch(payment);
  };

  const newRefund = (payment: MpFakePayment, amount: number, status: MpFakeRefundStatus): MpFakeRefund => {
    const refund: MpFakeRefund = {
      id: nextRefundId++,
      payment_id: payment.id,
      amount,
      status,
      date_created: mpDate(now()),
      source: { id: '123456789', name: 'Loja Teste', type: 'collector' },
      refund_mode: 'standard',
      adjustment_amount: 0,
      unique_sequence_number: null,
      reason: null,
      metadata: {},
    };
    refunds.set(payment.id, [...(refunds.get(payment.id) ?? []), refund]);
    if (status === 'approved') applyRefund(payment, refund);
    return refund;
  };

  /** `POST /v1/payments/{id}/refunds`, after its key was found new: [status, body, whether a refund was made]. */
  const createRefund = (payment: MpFakePayment, body: Record<string, unknown>, rendersInProcess: boolean): [number, unknown, boolean?] => {
    if (body.amount !== undefined && typeof body.amount !== 'number') return [400, error(400, 'amount attribute must be numeric', 4041, 'bad_request')];
    if (typeof body.amount === 'number' && (!(body.amount > 0) || round2(body.amount) !== body.amount))
      return [400, error(400, 'amount attribute must be positive', 4040, 'bad_request')];
    if (payment.status !== 'approved') return [400, error(400, 'The action requested is not valid for the current payment state', 2063, 'bad_request')];
    const taken = (refunds.get(payment.id) ?? []).filter((r) => r.status === 'approved' || r.status === 'in_process').reduce((sum, r) => sum + r.amount, 0);
    const remaining = round2(payment.transaction_amount - taken);
    const amount = typeof body.amount === 'number' ? body.amount : remaining;
    if (!(amount > 0) || amount > remaining) return [400, error(400, 'The amount to refund is more than what is left of the payment', 2085, 'bad_request')];
    const refund = newRefund(payment, amount, newRefundStatus);
    // Without the header, Mercado Pago reports a Pix refund left in process as a 400 (the refund is made all the same).
    if (refund.status === 'in_process' && !rendersInProcess) return [400, error(400, 'refund in process', 'in_process', 'bad_request'), true];
    return [201, refund, true];
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json' }).end(text);
  };

  /** Checks a create's body as Mercado Pago's reference describes it; the first problem, or null. */
  const createProblem = (body: Record<string, unknown>): string | null => {
    if (body.payment_method_id !== 'pix') return 'payment_method_id must be pix';
    const amount = body.transaction_amount;
    if (typeof amount !== 'number' || !(amount > 0) || round2(amount) !== amount) return 'transaction_amount must be a positive number with at most 2 decimals';
    const payer = body.payer as Record<string, unknown> | undefined;
    if (typeof payer !== 'object' || payer === null) return 'payer is required';
    if (typeof payer.email !== 'string' || !EMAIL.test(payer.email) || payer.email.length > 254) return 'payer.email must be a valid email';
    const identification = payer.identification as Record<string, unknown> | undefined;
    if (identification !== undefined) {
      if (identification.type !== 'CPF' && identification.type !== 'CNPJ') return 'payer.identification.type must be CPF or CNPJ';
      const digits = identification.type === 'CPF' ? /^\d{11}$/ : /^[0-9A-Z]{12}\d{2}$/;
      if (typeof identification.number !== 'string' || !digits.test(identification.number)) return 'payer.identification.number is invalid';
    }
    if (body.date_of_expiration !== undefined) {
      if (typeof body.date_of_expiration !== 'string' || !DATE_OF_EXPIRATION.test(body.date_of_expiration)) return 'date_of_expiration must be yyyy-MM-ddTHH:mm:ss.SSSz';
      const ahead = new Date(body.date_of_expiration).getTime() - now();
      if (ahead < 5 * 60_000 || ahead > 30 * 24 * 3600_000) return 'date_of_expiration must be between 5 minutes and 30 days ahead';
    }
    if (body.external_reference !== undefined && (typeof body.external_reference !== 'string' || body.external_reference.length > 256)) return 'external_reference is invalid';
    if (body.notification_url !== undefined && (typeof body.notification_url !== 'string' || !/^https?:\/\//.test(body.notification_url))) return 'notification_url is invalid';
    return null;
  };

  const createPayment = (body: Record<string, unknown>): MpFakePayment => {
    const id = nextId++;
    const amount = body.transaction_amount as number;
    const created = now();
    const payment: MpFakePayment = {
      id,
      status: 'pending',
      status_detail: 'pending_waiting_transfer',
      transaction_amount: amount,
      transaction_amount_refunded: 0,
      description: typeof body.description === 'string' ? body.description : null,
      payment_method_id: 'pix',
      payment_type_id: 'bank_transfer',
      currency_id: 'BRL',
      external_reference: typeof body.external_reference === 'string' ? body.external_reference : null,
      notification_url: typeof body.notification_url === 'string' ? body.notification_url : null,
      date_created: mpDate(created),
      date_last_updated: mpDate(created),
      date_of_expiration: typeof body.date_of_expiration === 'string' ? body.date_of_expiration : mpDate(created + 24 * 3600_000),
      date_approved: null,
      payer: { ...(body.payer as Record<string, unknown>), id: null },
      point_of_interaction: {
        type: 'PIX',
        transaction_data: { qr_code: qrCode(id, amount), qr_code_base64: 'iVBORw0KGgo=', ticket_url: `https://www.mercadopago.com.br/payments/${id}/ticket` },
      },
    };
    payments.set(id, payment);
    return payment;
  };

  /** Carries out one request; answers [status, body]. */
  const handle = (method: string, path: string, query: URLSearchParams, headers: IncomingMessage['headers'], raw: string): [number, unknown] => {
    if (headers.authorization !== `Bearer ${accessToken}`) return [401, error(401, 'invalid access token', 'unauthorized', 'unauthorized')];
    let body: Record<string, unknown> = {};
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        violations.push(`${method} ${path}: a body that is not JSON`);
        return [400, error(400, 'invalid json', 'bad_request', 'bad_request')];
      }
    }
    if (method === 'GET' && path === '/v1/payment_methods') return [200, [{ id: 'pix', name: 'PIX', payment_type_id: 'bank_transfer', status: 'active' }]];
    if (method === 'POST' && path === '/v1/payments') {
      const key = headers['x-idempotency-key'];
      if (typeof key !== 'string' || key === '') {
        violations.push('POST /v1/payments without X-Idempotency-Key');
        return [400, error(400, 'header X-Idempotency-Key is required', 'bad_request', 'bad_request')];
      }
      const problem = createProblem(body);
      if (problem) {
        violations.push(`POST /v1/payments: ${problem}`);
        return [400, error(400, problem, 4020, 'bad_request')];
      }
      const known = byKey.get(key);
      if (known) return [201, view(payments.get(known.payment)!)];
      const payment = createPayment(body);
      byKey.set(key, { payment: payment.id, body: raw });
      return [201, view(payment)];
    }
    if (method === 'GET' && path === '/v1/payments/search') {
      const reference = query.get('external_reference');
      const newestFirst = query.get('criteria') !== 'asc';
      const results = [...payments.values()]
        .filter((p) => reference === null || p.external_reference === reference)
        .sort((a, b) => (newestFirst ? b.id - a.id : a.id - b.id))
        .map(view);
      return [200, { paging: { total: results.length, limit: 30, offset: 0 }, results }];
    }
    const route = /^\/v1\/payments\/([^/]+)(?:\/refunds(?:\/([^/]+))?)?$/.exec(path);
    if (!route) return [404, error(404, 'resource not found', 'not_found', 'not_found')];
    const payment = payments.get(Number(route[1]));
    if (!payment || !/^\d+$/.test(route[1]!)) return [404, error(404, 'Payment not found', 2000, 'not_found')];
    const isRefunds = path.includes('/refunds');
    if (!isRefunds && method === 'GET') return [200, view(payment)];
    if (!isRefunds && method === 'PUT') {
      if (body.status !== 'cancelled') {
        violations.push(`PUT ${path}: only {"status":"cancelled"} is expected`);
        return [400, error(400, 'invalid status', 'bad_request', 'bad_request')];
      }
      if (payment.status !== 'pending' && payment.status !== 'in_process' && payment.status !== 'authorized') {
        return [400, error(400, `Payment ${payment.id} cannot be cancelled: it is ${payment.status}`, 2078, 'bad_request')];
      }
      payment.status = 'cancelled';
      payment.status_detail = 'by_collector';
      touch(payment);
      return [200, view(payment)];
    }
    const rendersInProcess = headers['x-render-in-process-refunds'] === 'true';
    if (isRefunds && method === 'GET') {
      const list = refundsOf(payment.id, rendersInProcess);
      if (!route[2]) return [200, list];
      const refund = list.find((r) => String(r.id) === route[2]);
      return refund ? [200, refund] : [404, error(404, 'Refund not found', 2032, 'not_found')];
    }
    if (isRefunds && method === 'POST' && !route[2]) {
      const key = headers['x-idempotency-key'];
      if (typeof key !== 'string' || key === '') {
        violations.push(`POST ${path} without X-Idempotency-Key`);
        return [400, error(400, "Header X-Idempotency-Key can't be null", 4292, 'bad_request')];
      }
      if (!rendersInProcess) violations.push(`POST ${path} without X-Render-In-Process-Refunds: a Pix refund in process would be answered 400`);
      const unknown = Object.keys(body).filter((field) => field !== 'amount');
      if (unknown.length) violations.push(`POST ${path}: the refund reference takes only amount, not ${unknown.join(', ')}`);
      const first = refundKeys.get(key);
      if (first) return [first[0], JSON.parse(first[1]) as unknown];
      const [status, answer, made] = createRefund(payment, body, rendersInProcess);
      // A key is kept with what it made; a request refused before anything was made leaves it free.
      if (made) refundKeys.set(key, [status, JSON.stringify(answer)]);
      return [status, answer];
    }
    return [405, error(405, 'method not allowed', 'method_not_allowed', 'method_not_allowed')];
  };

  const takeFailure = (method: string, path: string): MpFailure | undefined => {
    const failure = failures.find((f) => f.left > 0 && (!f.route || f.route.test(`${method} ${path}`)));
    if (!failure) return undefined;
    failure.left--;
    failures = failures.filter((f) => f.left > 0);
    return failure;
  };

  let open = 0;
  let peakOpen = 0;
  const server: Server = createServer({ key: pki.server.key, cert: pki.server.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const requested = new URL(req.url ?? '/', 'https://fake');
      const path = requested.pathname;
      let parsed: unknown;
      try {
        parsed = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        parsed = raw;
      }
      requests.push({ method, path, headers: req.headers, body: parsed });
      open++;
      peakOpen = Math.max(peakOpen, open);
      res.on('close', () => open--);
      const failure = takeFailure(method, path);
      if (failure?.kind === 'reset') return req.socket.destroy();
      if (failure?.kind === 'malformed') return send(res, 200, '<html>not json');
      if (failure?.kind === 'status') {
        const status = failure.status ?? 503;
        if (status === 401) return send(res, 401, error(401, 'invalid access token', 'unauthorized', 'unauthorized'));
        return send(
          res,
          status,
          error(status, status >= 500 ? 'internal error' : 'bad request', status >= 500 ? 'internal_error' : 4020, status >= 500 ? 'internal_error' : 'bad_request'),
        );
      }
      const [status, body] = handle(method, path, requested.searchParams, req.headers, raw);
      if (failure?.kind === 'created-then-status') {
        const failed = failure.status ?? 503;
        return send(res, failed, error(failed, 'internal error', 'internal_error', 'internal_error'));
      }
      if (failure?.kind === 'hang') {
        const timer = setTimeout(() => {
          held.delete(timer);
          if (!res.destroyed) send(res, status, body);
        }, failure.delayMs ?? 3000);
        held.add(timer);
        return;
      }
      send(res, status, body);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sign = (dataId: string, requestId: string, ts: string, secret: string) =>
    createHmac('sha256', secret)
      .update(`id:${/^[a-zA-Z0-9]+$/.test(dataId) ? dataId.toLowerCase() : dataId};request-id:${requestId};ts:${ts};`)
      .digest('hex');

  return {
    url,
    caPem: pki.ca.cert,
    accessToken,
    webhookSecret,
    payments,
    refunds,
    requests,
    violations,
    approve(id) {
      const payment = find(id);
      payment.status = 'approved';
      payment.status_detail = 'accredited';
      payment.date_approved = mpDate(now());
      touch(payment);
      return payment;
    },
    setStatus(id, status, detail) {
      const payment = find(id);
      payment.status = status;
      payment.status_detail = detail ?? status;
      touch(payment);
      return payment;
    },
    settleRefund(paymentId, refundId, status) {
      const payment = find(paymentId);
      const refund = (refunds.get(payment.id) ?? []).find((r) => String(r.id) === String(refundId));
      if (!refund) throw new Error(`the fake holds no refund ${refundId}`);
      if (refund.status !== 'in_process') throw new Error(`refund ${refundId} is already ${refund.status}`);
      refund.status = status;
      if (status === 'approved') applyRefund(payment, refund);
      else touch(payment);
      return refund;
    },
    refundAtPortal(paymentId, amount) {
      const payment = find(paymentId);
      if (payment.status !== 'approved') throw new Error(`payment ${paymentId} is ${payment.status}: nothing to refund`);
      return newRefund(payment, amount, 'approved');
    },
    nextRefunds(status) {
      newRefundStatus = status;
    },
    view: (id) => view(find(id)),
    async notify(id, notifyOptions = {}) {
      const type = notifyOptions.type ?? 'payment';
      const payment = type === 'payment' ? find(id) : undefined;
      const target = notifyOptions.url ?? payment?.notification_url;
      if (!target) throw new Error(`no notification_url for ${id}`);
      const dataId = notifyOptions.dataId ?? String(id);
      const requestId = randomUUID();
      const ts = notifyOptions.tsUnit === 'milliseconds' ? String(now()) : String(Math.floor(now() / 1000));
      const secret = notifyOptions.secret === undefined ? webhookSecret : notifyOptions.secret;
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId };
      if (secret !== null) headers['x-signature'] = `ts=${ts},v1=${sign(dataId, requestId, ts, secret)}`;
      const body = {
        action: notifyOptions.action ?? 'payment.updated',
        api_version: 'v1',
        data: { id: dataId },
        date_created: mpDate(now()),
        id: Number(`1${randomBytes(4).readUInt32BE()}`),
        live_mode: false,
        type,
        user_id: '123456789',
      };
      const where = new URL(target);
      where.searchParams.set('data.id', dataId);
      where.searchParams.set('type', type);
      try {
        const res = await fetch(where, { method: 'POST', headers, body: JSON.stringify(body) });
        return { url: where.href, headers, body, status: res.status, responseBody: await res.text() };
      } catch {
        return { url: where.href, headers, body, status: null, responseBody: null };
      }
    },
    fail(failure) {
      failures.push({ ...failure, left: failure.times ?? 1 });
    },
    get peakOpenRequests() {
      return peakOpen;
    },
    reset() {
      peakOpen = open;
      failures = [];
      newRefundStatus = 'in_process';
    },
    assertNoViolations() {
      if (violations.length) throw new Error(`Mercado Pago fake: ${violations.splice(0).join('; ')}`);
    },
    async close() {
      for (const timer of held) clearTimeout(timer);
      held.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { createHmac } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { loadConfig } from '../../config/load-config';
import type { PaymentStatus } from '../../domain/payment-status';
import { type CreateChargeRequest, CredentialsError, type InboundCallback, UpstreamError, WebhookAuthError, WebhookParseError } from '../provider-adapter';
import { SANDBOX_STATUSES, type SandboxChargeStatus } from '../../common/sandbox-wire/sandbox-api';
import { parseSandboxEvent } from './flows/callback';
import { sandboxStatusToPaymentStatus } from './flows/charge';
import { SandboxAdapter } from './sandbox.adapter';
import { loadSandboxSettings } from './settings';
import { type OutboundAnswer, type OutboundRequest, OutboundTransport } from '../transport/transport';

const BASE_URL = 'http://sandbox.test/sandbox';
const SECRET = 'whsec_adapter_unit';

type Answer = { status: number; body?: unknown } | Error;

/** A transport whose exchanges are answered by `answer` (no sockets: the transport's own spec and the provider contract suite in test/providers cover real HTTP). */
class AnsweringTransport extends OutboundTransport {
  readonly seen: OutboundRequest[] = [];
  constructor(private readonly answer: (request: OutboundRequest) => Answer) {
    super();
  }
  send(request: OutboundRequest): Promise<OutboundAnswer> {
    this.seen.push(request);
    const result = this.answer(request);
    if (result instanceof Error) return Promise.reject(result);
    const text = typeof result.body === 'string' ? result.body : result.body === undefined ? '' : JSON.stringify(result.body);
    return Promise.resolve({ status: result.status, headers: {}, text });
  }
  close(): void {
    this.seen.length = 0;
  }
}

function adapterAnswering(answer: (request: OutboundRequest) => Answer, env: Record<string, string> = {}) {
  const transport = new AnsweringTransport(answer);
  const { config } = loadConfig({ NODE_ENV: 'test', DATA_DIR: ':memory:', SANDBOX_BASE_URL: BASE_URL, UPSTREAM_TIMEOUT_MS: '2500', ...env }, { persistGenerated: false });
  const adapter = adapterFor(config, transport);
  return { adapter, account: adapter.builtInAccount(), seen: transport.seen };
}

function adapterFor(config: AppConfig, transport: OutboundTransport = new AnsweringTransport(() => new Error('no call expected'))): SandboxAdapter {
  return new SandboxAdapter(transport, loadSandboxSettings(config), { isProduction: config.isProduction, timeoutMs: config.upstreamTimeoutMs });
}

const request: CreateChargeRequest = {
  paymentId: 'pay_1',
  txid: 'abcdefghijklmnopqrstuvwxyz012345',
  amountCents: 1050,
  currency: 'BRL',
  description: 'Pedido 1234',
  externalId: 'order-1234',
  payer: { document: '12345678909', name: 'Ana Souza' },
  expiresInSeconds: 3600,
  notificationUrl: 'http://gateway.test/webhooks/sandbox',
};

const wireCharge = (overrides: Record<string, unknown> = {}) => ({
  id: 'sbx_1',
  txid: request.txid,
  status: 'ATIVA',
  amount: '10.50',
  currency: 'BRL',
  description: 'Pedido 1234',
  externalId: 'order-1234',
  recipient: request.payer,
  pixCopiaECola: '00020126…6304ABCD',
  notificationUrl: request.notificationUrl,
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T01:00:00.000Z',
  paidAt: null,
  ...overrides,
});

const noAnswer = (kind: 'timeout' | 'network', code: string) => new UpstreamError({ kind, message: `Sandbox create: ${code}`, cause: new Error(code) });

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe('SandboxAdapter', () => {
  describe('status mapping', () => {
    const expected: Record<SandboxChargeStatus, PaymentStatus> = {
      ATIVA: 'pending',
      CONCLUIDA: 'paid',
      EXPIRADA: 'expired',
      CANCELADA: 'cancelled',
      FALHOU: 'failed',
      DEVOLVIDA: 'refunded',
    };
    it.each(SANDBOX_STATUSES)('maps %s', (status) => {
      expect(sandboxStatusToPaymentStatus(status)).toBe(expected[status]);
    });

    it('maps the status of a charge read back', async () => {
      const { adapter, account } = adapterAnswering(() => ({ status: 200, body: wireCharge({ status: 'CONCLUIDA', paidAt: '2026-01-01T00:10:00.000Z' }) }));
      await expect(adapter.getCharge(account, { providerPaymentId: 'sbx_1', txid: request.txid })).resolves.toEqual({
        providerPaymentId: 'sbx_1',
        txid: request.txid,
        status: 'paid',
        amountCents: 1050,
        copyPaste: '00020126…6304ABCD',
        expiresAt: new Date('2026-01-01T01:00:00.000Z'),
        paidAt: new Date('2026-01-01T00:10:00.000Z'),
        // A charge with no refunds does not list any on the wire: none.
        refunds: [],
      });
    });
  });

  describe('requests', () => {
    it('creates with the txid as Idempotency-Key, a two-place amount, the configured timeout, on one channel', async () => {
      const { adapter, account, seen } = adapterAnswering(() => ({ status: 201, body: wireCharge() }));
      await adapter.createCharge(account, request);
      await adapter.createCharge(account, request);
      const [first, second] = seen;
      expect(first).toMatchObject({ method: 'POST', timeoutMs: 2500, channel: { key: 'sandbox' } });
      expect(first!.url.href).toBe(`${BASE_URL}/charges`);
      expect(first!.headers!['idempotency-key']).toBe(request.txid);
      expect(JSON.parse(first!.body as string)).toEqual({
        txid: request.txid,
        amount: '10.50',
        currency: 'BRL',
        description: 'Pedido 1234',
        externalId: 'order-1234',
        recipient: { document: '12345678909', name: 'Ana Souza' },
        expiresIn: 3600,
        notificationUrl: request.notificationUrl,
      });
      expect(second!.channel).toEqual(first!.channel);
    });

    it('reads by sandbox id, or by txid when there is none yet', async () => {
      const { adapter, account, seen } = adapterAnswering(() => ({ status: 200, body: wireCharge() }));
      await adapter.getCharge(account, { providerPaymentId: 'sbx_1', txid: request.txid });
      await adapter.getCharge(account, { providerPaymentId: null, txid: request.txid });
      expect(seen.map((sent) => `${sent.method} ${sent.url.href}`)).toEqual([`GET ${BASE_URL}/charges/sbx_1`, `GET ${BASE_URL}/charges/${request.txid}`]);
    });

    it('presents its API token on every call, as a real PSP client presents its key', async () => {
      const { adapter, account, seen } = adapterAnswering(() => ({ status: 200, body: wireCharge() }), { SANDBOX_API_TOKEN: 'sandbox-api-token-0123456789' });
      await adapter.createCharge(account, request);
      await adapter.getCharge(account, { providerPaymentId: 'sbx_1', txid: request.txid });
      await adapter.check(account);
      expect(seen.map((sent) => sent.headers!.authorization)).toEqual(Array(3).fill('Bearer sandbox-api-token-0123456789'));
    });

    it("sends Pix Automático's calls the same way: to the gateway's simulated PSP, with its token, on its channel and timeout", async () => {
      const { adapter, account, seen } = adapterAnswering(() => ({ status: 404, body: { error: { code: 'RECURRENCE_NOT_FOUND', message: 'no' } } }), {
        SANDBOX_API_TOKEN: 'sandbox-api-token-0123456789',
      });
      expect(adapter.descriptor.capabilities.recurring).toEqual({ leadTime: { minDays: 2, maxDays: 10 }, source: 'docs/sandbox.md' });
      await expect(adapter.recurring.getRecurrence(account, { providerRecurrenceId: 'sbxrec_1' })).rejects.toMatchObject({
        upstreamStatus: 404,
        providerCode: 'RECURRENCE_NOT_FOUND',
        message: 'Sandbox get recurrence: HTTP 404 RECURRENCE_NOT_FOUND',
      });
      expect(seen[0]).toMatchObject({ label: 'Sandbox get recurrence', method: 'GET', timeoutMs: 2500, channel: { key: 'sandbox' } });
      expect(seen[0]!.url.href).toBe(`${BASE_URL}/recurrences/sbxrec_1`);
      expect(seen[0]!.headers!.authorization).toBe('Bearer sandbox-api-token-0123456789');
    });

    it('without SANDBOX_API_TOKEN presents one derived from SECRETS_KEY: the same for every process, different per key', async () => {
      const tokenFor = async (key: string) => {
        const { adapter, account, seen } = adapterAnswering(() => ({ status: 200, body: { status: 'ok' } }), { SECRETS_KEY: key });
        await adapter.check(account);
        return seen[0]!.headers!.authorization!;
      };
      const a = await tokenFor('a'.repeat(64));
      expect(a).toMatch(/^Bearer sbx_[A-Za-z0-9_-]{43}$/);
      expect(await tokenFor('a'.repeat(64))).toBe(a);
      expect(await tokenFor('b'.repeat(64))).not.toBe(a);
      expect(a).not.toContain('a'.repeat(16));
    });

    it('accepts 200 (the same txid again) as well as 201', async () => {
      const { adapter, account } = adapterAnswering(() => ({ status: 200, body: wireCharge() }));
      await expect(adapter.createCharge(account, request)).resolves.toMatchObject({ providerPaymentId: 'sbx_1', status: 'pending', amountCents: 1050 });
    });
  });

  describe('failure mapping', () => {
    it.each([
      ['timeout', 'ETIMEDOUT'],
      ['network', 'ECONNREFUSED'],
    ] as const)("no answer is the transport's UpstreamError (%s) as it is", async (kind, code) => {
      const thrown = noAnswer(kind, code);
      const { adapter, account } = adapterAnswering(() => thrown);
      const error = await failure(adapter.createCharge(account, request));
      expect(error).toBe(thrown);
      expect(error.ambiguous).toBe(true);
    });

    it.each([
      [500, { error: { code: 'INTERNAL', message: 'boom' } }, 'INTERNAL', 'boom', true],
      [503, { error: { code: 'UNAVAILABLE', message: 'later' } }, 'UNAVAILABLE', 'later', true],
      [400, { error: { code: 'INVALID_REQUEST', message: 'amount must match', field: 'amount' } }, 'INVALID_REQUEST', 'amount must match', false],
      [409, { error: { code: 'TXID_CONFLICT', message: 'txid taken' } }, 'TXID_CONFLICT', 'txid taken', false],
      [422, { error: { code: 'UNPROCESSABLE', message: 'no' } }, 'UNPROCESSABLE', 'no', false],
      [502, '<html>Bad gateway</html>', undefined, undefined, true],
      [404, { error: { code: 42 } }, undefined, undefined, false],
      [302, '', undefined, undefined, false],
    ])('HTTP %i is an http failure carrying the provider code and message', async (status, body, providerCode, providerMessage, ambiguous) => {
      const { adapter, account } = adapterAnswering(() => ({ status, body }));
      const error = await failure(adapter.createCharge(account, request));
      expect(error).toMatchObject({ kind: 'http', upstreamStatus: status, providerCode, providerMessage });
      expect(error.ambiguous).toBe(ambiguous);
    });

    it.each([
      ['a body that is not JSON', '<html>ok</html>'],
      ['an empty body', ''],
      ['a JSON array', [wireCharge()]],
      ['a wrapped charge', { data: wireCharge() }],
      ['no id', wireCharge({ id: undefined })],
      ['no txid', wireCharge({ txid: '' })],
      ['an unknown status', wireCharge({ status: 'PROCESSANDO' })],
      ['a numeric amount', wireCharge({ amount: 10.5 })],
      ['an amount with three places', wireCharge({ amount: '10.500' })],
      ['no BR Code', wireCharge({ pixCopiaECola: null })],
      ['a bad expiresAt', wireCharge({ expiresAt: 'tomorrow' })],
      ['a bad paidAt', wireCharge({ paidAt: 5 })],
    ])('a 2xx with %s is malformed', async (_label, body) => {
      const { adapter, account } = adapterAnswering(() => ({ status: 201, body }));
      const error = await failure(adapter.createCharge(account, request));
      expect(error).toMatchObject({ kind: 'malformed', upstreamStatus: 201 });
      expect(error.ambiguous).toBe(false);
    });

    it('a 2xx other than 200/201 is malformed', async () => {
      const { adapter, account } = adapterAnswering(() => ({ status: 204 }));
      await expect(failure(adapter.createCharge(account, request))).resolves.toMatchObject({ kind: 'malformed', upstreamStatus: 204 });
    });
  });

  describe('health', () => {
    it('is ok when the sandbox answers {status:"ok"}', async () => {
      const { adapter, account, seen } = adapterAnswering(() => ({ status: 200, body: { status: 'ok' } }));
      await expect(adapter.check(account)).resolves.toMatchObject({ ok: true, latencyMs: expect.any(Number) });
      expect(`${seen[0]!.method} ${seen[0]!.url.href}`).toBe(`GET ${BASE_URL}/health`);
    });

    it.each([
      ['an error status', { status: 503, body: { status: 'ok' } }, 'HTTP 503'],
      ['an unexpected body', { status: 200, body: 'fine' }, 'unexpected health body'],
      ['no answer', noAnswer('network', 'ECONNREFUSED') as Answer, 'ECONNREFUSED'],
    ])('is not ok on %s, and does not throw', async (_label, answer, detail) => {
      const { adapter, account } = adapterAnswering(() => answer);
      const health = await adapter.check(account);
      expect(health.ok).toBe(false);
      expect(health.detail).toContain(detail);
    });
  });

  describe('receiveCallback', () => {
    const body = Buffer.from('{"event":"payment.confirmed","id":"evt_sbx_1","created_at":"2026-01-01T00:00:00.000Z","data":{"id":"sbx_1","amount":10.5}}');
    const sign = (t: number, secret = SECRET) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body.toString()}`).digest('hex')}`;
    const now = () => Math.floor(Date.now() / 1000);
    const hook = (headers: InboundCallback['headers'], rawBody = body): InboundCallback => ({ method: 'POST', path: '', query: {}, headers, rawBody });
    const signed = adapterAnswering(() => ({ status: 200 }), { SANDBOX_WEBHOOK_SECRET: SECRET });
    const unsigned = adapterAnswering(() => ({ status: 200 }));
    const accepts = (target: typeof signed, request: InboundCallback) => expect(target.adapter.receiveCallback(target.account, request)).resolves.toHaveLength(1);
    const refuses = (target: typeof signed, request: InboundCallback) => expect(target.adapter.receiveCallback(target.account, request)).rejects.toBeInstanceOf(WebhookAuthError);

    it('accepts a good signature, whatever the header name’s case, as one event', async () => {
      await accepts(signed, hook({ 'x-sandbox-signature': sign(now()) }));
      await accepts(signed, hook({ 'X-Sandbox-Signature': sign(now()) }));
      await expect(signed.adapter.receiveCallback(signed.account, hook({ 'x-sandbox-signature': sign(now()) }))).resolves.toEqual([
        { eventId: 'evt_sbx_1', type: 'payment.confirmed', paymentRef: 'sbx_1', amountCents: 1050, occurredAt: new Date('2026-01-01T00:00:00.000Z') },
      ]);
    });

    it('refuses a bad signature, a stale timestamp, or a missing header', async () => {
      await refuses(signed, hook({ 'x-sandbox-signature': sign(now(), 'another-secret') }));
      await refuses(signed, hook({ 'x-sandbox-signature': sign(now() - 301) }));
      await refuses(signed, hook({}));
    });

    it('checks the raw body', async () => {
      await refuses(signed, hook({ 'x-sandbox-signature': sign(now()) }, Buffer.from(body.toString().replace('10.5', '1000'))));
    });

    it('verifies before parsing: an unsigned body that is not an event is 401, not 400', async () => {
      await refuses(signed, hook({}, Buffer.from('not json')));
      await expect(unsigned.adapter.receiveCallback(unsigned.account, hook({}, Buffer.from('not json')))).rejects.toBeInstanceOf(WebhookParseError);
    });

    it('accepts unsigned events only when no SANDBOX_WEBHOOK_SECRET is configured', async () => {
      await accepts(unsigned, hook({}));
      await refuses(signed, hook({}));
    });

    it("verifies a stored account's events with its own secret", async () => {
      const account = { ...unsigned.account, id: 'pa_1', credentials: unsigned.adapter.parseCredentials({ webhook_secret: 'account-secret-0123456789' }, unsigned.account) };
      const byAccount = (t: number) => `t=${t},v1=${createHmac('sha256', 'account-secret-0123456789').update(`${t}.${body.toString()}`).digest('hex')}`;
      await expect(unsigned.adapter.receiveCallback(account, hook({ 'x-sandbox-signature': byAccount(now()) }))).resolves.toHaveLength(1);
      await expect(unsigned.adapter.receiveCallback(account, hook({ 'x-sandbox-signature': sign(now()) }))).rejects.toBeInstanceOf(WebhookAuthError);
      await expect(unsigned.adapter.receiveCallback(account, hook({}))).rejects.toBeInstanceOf(WebhookAuthError);
    });

    it('never accepts an unsigned event in production, even with no secret configured', async () => {
      // Production refuses to start a sandbox without a secret; should a config slip through anyway, the adapter still refuses.
      const { config } = loadConfig({ NODE_ENV: 'test', DATA_DIR: ':memory:' }, { persistGenerated: false });
      const production = adapterFor(new AppConfig({ ...config, nodeEnv: 'production', isProduction: true }));
      await expect(production.receiveCallback(production.builtInAccount(), hook({}))).rejects.toBeInstanceOf(WebhookAuthError);
      await expect(production.receiveCallback(production.builtInAccount(), hook({ 'x-sandbox-signature': sign(now()) }))).rejects.toBeInstanceOf(WebhookAuthError);
    });
  });

  describe('accounts', () => {
    const { adapter, account, seen } = adapterAnswering(() => ({ status: 201, body: wireCharge() }));

    it('takes an optional webhook_secret of 16 to 256 characters, and nothing else', () => {
      expect(adapter.parseCredentials({}, account).webhookSecret).toBeNull();
      expect(adapter.parseCredentials({ webhook_secret: 's'.repeat(16) }, account).webhookSecret?.reveal()).toBe('s'.repeat(16));
      for (const [input, field] of [
        [{ webhook_secret: 'short' }, 'credentials.webhook_secret'],
        [{ webhook_secret: 7 }, 'credentials.webhook_secret'],
        [{ client_id: 'x' }, 'credentials.client_id'],
        ['secret', 'credentials'],
      ] as const) {
        expect(() => adapter.parseCredentials(input, account)).toThrow(expect.objectContaining({ name: 'CredentialsError', field }) as CredentialsError);
      }
      expect(adapter.summarizeCredentials({ webhookSecret: null })).toEqual({});
    });

    it('requires a webhook secret in production, where only signed events may move a payment', () => {
      const { config } = loadConfig({ NODE_ENV: 'test', DATA_DIR: ':memory:' }, { persistGenerated: false });
      const production = adapterFor(new AppConfig({ ...config, nodeEnv: 'production', isProduction: true }));
      expect(() => production.parseCredentials({}, { ...account, baseUrl: null })).toThrow(expect.objectContaining({ field: 'credentials.webhook_secret' }) as CredentialsError);
    });

    it("asks the simulated PSP to sign a stored account's charges with its secret, and the built-in account's with the PSP's own", async () => {
      const stored = { ...account, id: 'pa_1', credentials: adapter.parseCredentials({ webhook_secret: 'account-secret-0123456789' }, account) };
      await adapter.createCharge(stored, request);
      await adapter.createCharge(account, request);
      expect(JSON.parse(seen[0]!.body as string)).toMatchObject({ webhookSecret: 'account-secret-0123456789' });
      expect(JSON.parse(seen[1]!.body as string)).not.toHaveProperty('webhookSecret');
    });
  });

  describe("the gateway's sandbox API token", () => {
    const token = 'sandbox-api-token-0123456789';

    it("refuses an account whose base_url is not the gateway's simulated PSP", () => {
      const { adapter, account } = adapterAnswering(() => ({ status: 201, body: wireCharge() }), { SANDBOX_API_TOKEN: token });
      expect(() => adapter.parseCredentials({}, { ...account, baseUrl: 'https://psp.attacker.example/sandbox' })).toThrow(
        expect.objectContaining({ name: 'CredentialsError', field: 'base_url' }) as CredentialsError,
      );
      expect(adapter.parseCredentials({}, { ...account, baseUrl: null }).webhookSecret).toBeNull();
      expect(adapter.parseCredentials({}, { ...account, baseUrl: `${BASE_URL}/` }).webhookSecret).toBeNull();
    });

    it("goes only to the gateway's simulated PSP, even for an account that carries another base URL", async () => {
      const { adapter, account, seen } = adapterAnswering(() => ({ status: 201, body: wireCharge() }), { SANDBOX_API_TOKEN: token });
      const elsewhere = { ...account, id: 'pa_elsewhere', baseUrl: 'https://psp.attacker.example/sandbox' };
      await adapter.createCharge(elsewhere, request);
      await adapter.check(elsewhere);
      expect(seen.map((sent) => sent.url.origin)).toEqual([new URL(BASE_URL).origin, new URL(BASE_URL).origin]);
      expect(seen.every((sent) => sent.headers!.authorization === `Bearer ${token}`)).toBe(true);
    });
  });

  describe('simulateEvent', () => {
    it('asks the simulated PSP for the event and answers what it said', async () => {
      const answer = { eventId: 'evt_sbx_2', delivered: true, status: 200, charge: wireCharge({ status: 'CONCLUIDA' }) };
      const { adapter, account, seen } = adapterAnswering(() => ({ status: 202, body: answer }));
      await expect(adapter.simulateEvent(account, { txid: request.txid, providerPaymentId: 'sbx_1' }, { event: 'payment.confirmed', amountCents: 999 })).resolves.toEqual(answer);
      expect(`${seen[0]!.method} ${seen[0]!.url.href}`).toBe(`POST ${BASE_URL}/charges/sbx_1/simulate`);
      expect(JSON.parse(seen[0]!.body as string)).toEqual({ event: 'payment.confirmed', amount: '9.99' });
    });

    it("maps a refusal to an http UpstreamError with the PSP's code, and an answer of the wrong shape to malformed", async () => {
      const refused = adapterAnswering(() => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'no charge' } } }));
      await expect(
        failure(refused.adapter.simulateEvent(refused.account, { txid: request.txid, providerPaymentId: 'sbx_9' }, { event: 'payment.confirmed' })),
      ).resolves.toMatchObject({
        kind: 'http',
        upstreamStatus: 404,
        providerCode: 'NOT_FOUND',
      });
      const odd = adapterAnswering(() => ({ status: 202, body: { ok: true } }));
      await expect(failure(odd.adapter.simulateEvent(odd.account, { txid: request.txid, providerPaymentId: 'sbx_1' }, { event: 'payment.confirmed' }))).resolves.toMatchObject({
        kind: 'malformed',
      });
    });
  });

  describe('parseSandboxEvent', () => {
    const event = (overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
      event: 'payment.confirmed',
      id: 'evt_sbx_1',
      created_at: '2026-01-01T00:00:00.000Z',
      data: { id: 'sbx_1', txid: request.txid, amount: 10.5, status: 'CONCLUIDA', ...data },
      ...overrides,
    });
    const parse = (body: unknown) => parseSandboxEvent(body, Buffer.from(JSON.stringify(body) ?? ''));

    it.each(['payment.confirmed', 'payment.expired', 'payment.cancelled', 'payment.failed', 'payment.refunded'])('parses %s', (type) => {
      expect(parse(event({ event: type }))).toEqual({
        eventId: 'evt_sbx_1',
        type,
        paymentRef: 'sbx_1',
        amountCents: 1050,
        occurredAt: new Date('2026-01-01T00:00:00.000Z'),
      });
    });

    it('takes the amount exactly (0.29 reais is 29 centavos) and allows a gateway payment id', () => {
      expect(parse(event({}, { id: 'pay_123', amount: 0.29 }))).toMatchObject({ paymentRef: 'pay_123', amountCents: 29 });
    });

    it('reads the raw body when the host did not parse one', () => {
      const raw = Buffer.from(JSON.stringify(event()));
      expect(parseSandboxEvent(undefined, raw)).toMatchObject({ eventId: 'evt_sbx_1', amountCents: 1050 });
    });

    it('uses the time of receipt when the event has no created_at (as a hand-written test event may omit it)', () => {
      const before = Date.now();
      const parsed = parse(event({ created_at: undefined }));
      expect(parsed.occurredAt.getTime()).toBeGreaterThanOrEqual(before);
    });

    it.each([
      ['a JSON array', [event()], 'body'],
      ['null', null, 'body'],
      ['a string', 'payment.confirmed', 'body'],
      ['no event kind', event({ event: undefined }), 'event'],
      ['an unknown event kind', event({ event: 'payment.exploded' }), 'event'],
      ['a non-string event kind', event({ event: 7 }), 'event'],
      ['no id', event({ id: undefined }), 'id'],
      ['an empty id', event({ id: '  ' }), 'id'],
      ['a numeric id', event({ id: 12 }), 'id'],
      ['an over-long id', event({ id: 'e'.repeat(201) }), 'id'],
      ['a bad created_at', event({ created_at: 'yesterday' }), 'created_at'],
      ['a created_at PostgreSQL cannot store', event({ created_at: '-100000-01-01T00:00:00Z' }), 'created_at'],
      ['a created_at past year 9999', event({ created_at: '+010000-01-01T00:00:00Z' }), 'created_at'],
      ['no data', event({ data: undefined }), 'data'],
      ['data that is an array', event({ data: [] }), 'data'],
      ['no data.id', event({}, { id: undefined }), 'data.id'],
      ['a string amount', event({}, { amount: '10.50' }), 'data.amount'],
      ['no amount', event({}, { amount: undefined }), 'data.amount'],
      ['a negative amount', event({}, { amount: -1 }), 'data.amount'],
      ['an amount with three places', event({}, { amount: 10.505 }), 'data.amount'],
    ])('throws WebhookParseError for %s', (_label, body, field) => {
      let thrown: unknown;
      try {
        parse(body);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WebhookParseError);
      expect((thrown as WebhookParseError).field).toBe(field);
    });
  });
});

import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { brasiliaDate } from '../../src/domain/recurrence';
import { sandboxChargeBody } from '../helpers/factories';
import { WebhookReceiver } from '../providers/webhook-receiver';
import { verifySandboxSignature } from '../../src/common/sandbox-wire/sandbox-signature';
import { sandboxServer } from '../../src/sandbox-psp/sandbox-server';

const SECRET = 'whsec_server_unit';
/** Every caller let in, private notification URLs allowed: what these tests of the PSP behaviour need. */
const OPEN = { authorize: () => true, allowPrivateNotificationUrls: true };

describe('sandbox PSP server', () => {
  let app: FastifyInstance;
  let receiver: WebhookReceiver;
  let now = Date.parse('2026-03-01T12:00:00.000Z');

  const create = (body: Record<string, unknown> = sandboxChargeBody(), key: unknown = body.txid) =>
    app.inject({ method: 'POST', url: '/charges', payload: body, headers: typeof key === 'string' ? { 'idempotency-key': key } : {} });
  const get = (id: string) => app.inject({ method: 'GET', url: `/charges/${id}` });
  const fail = (payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/_control/failures', payload });

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    app = Fastify();
    await app.register(sandboxServer, { ...OPEN, webhookSecret: SECRET, maxCharges: 50, now: () => now });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });
  afterEach(() => app.inject({ method: 'DELETE', url: '/_control/failures' }));

  describe('POST /charges', () => {
    it('creates an active charge with a BR Code, expiring expiresIn seconds later', async () => {
      const body = sandboxChargeBody({ description: 'Pedido 1234', externalId: 'order-1234' });
      const res = await create(body);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        id: expect.stringMatching(/^sbx_[0-9a-f]{32}$/),
        txid: body.txid,
        status: 'ATIVA',
        amount: '10.50',
        currency: 'BRL',
        description: 'Pedido 1234',
        externalId: 'order-1234',
        recipient: body.recipient,
        pixCopiaECola: expect.stringMatching(/^000201.*540510\.50.*6304[0-9A-F]{4}$/),
        notificationUrl: body.notificationUrl,
        createdAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 3600_000).toISOString(),
        paidAt: null,
        pix: null,
      });
    });

    it('answers the same txid with 200 and the same charge, and keeps one charge', async () => {
      const body = sandboxChargeBody();
      const first = await create(body);
      const again = await create({ ...body, description: 'changed' });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      const all = (await app.inject({ method: 'GET', url: '/_control/charges' })).json<{ txid: string }[]>();
      expect(all.filter((charge) => charge.txid === body.txid)).toHaveLength(1);
    });

    it('refuses the same txid with another amount: 409 TXID_CONFLICT', async () => {
      const body = sandboxChargeBody();
      await create(body);
      const res = await create({ ...body, amount: '10.51' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: { code: 'TXID_CONFLICT', message: expect.any(String) } });
    });

    it('a failure queued for a call that ends in 409 or 404 still happens to it', async () => {
      const body = sandboxChargeBody();
      await create(body);
      await fail({ mode: 'http_500' });
      expect((await create({ ...body, amount: '1.00' })).statusCode).toBe(500);
      await fail({ mode: 'malformed' });
      const missing = await get('sbx_nope');
      expect(missing.statusCode).toBe(404);
      expect(() => JSON.parse(missing.body)).toThrow();
    });

    it.each([
      ['no Idempotency-Key', sandboxChargeBody(), null, 'Idempotency-Key'],
      ['an Idempotency-Key other than the txid', sandboxChargeBody(), 'x'.repeat(32), 'Idempotency-Key'],
      ['a short txid', sandboxChargeBody({ txid: 'abc' }), 'abc', 'txid'],
      ['a numeric amount', sandboxChargeBody({ amount: 10.5 }), undefined, 'amount'],
      ['a zero amount', sandboxChargeBody({ amount: '0.00' }), undefined, 'amount'],
      ['an amount with one place', sandboxChargeBody({ amount: '10.5' }), undefined, 'amount'],
      ['another currency', sandboxChargeBody({ currency: 'USD' }), undefined, 'currency'],
      ['no externalId', sandboxChargeBody({ externalId: undefined }), undefined, 'externalId'],
      ['a bad recipient document', sandboxChargeBody({ recipient: { document: '123', name: 'Ana' } }), undefined, 'recipient.document'],
      ['no recipient name', sandboxChargeBody({ recipient: { document: '12345678909' } }), undefined, 'recipient.name'],
      ['a zero expiresIn', sandboxChargeBody({ expiresIn: 0 }), undefined, 'expiresIn'],
      ['a non-http notificationUrl', sandboxChargeBody({ notificationUrl: 'ftp://x' }), undefined, 'notificationUrl'],
    ])('refuses %s with 400 INVALID_REQUEST naming the field', async (_label, body, key, field) => {
      const res = await create(body, key === undefined ? body.txid : key);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.any(String), field } });
    });

    it('refuses a body that is not JSON, or no body, in its own shape', async () => {
      const bad = await app.inject({ method: 'POST', url: '/charges', payload: '{"txid"', headers: { 'content-type': 'application/json' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
      const none = await app.inject({ method: 'POST', url: '/charges' });
      expect(none.statusCode).toBe(400);
      const text = await app.inject({ method: 'POST', url: '/charges', payload: 'hi', headers: { 'content-type': 'text/plain' } });
      expect(text.statusCode).toBe(415);
      expect(text.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    });
  });

  describe('GET /charges/:id', () => {
    it('finds a charge by sandbox id and by txid; 404 NOT_FOUND otherwise', async () => {
      const created = (await create()).json();
      expect((await get(created.id)).json()).toEqual(created);
      expect((await get(created.txid)).json()).toEqual(created);
      const missing = await get('sbx_nope');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    });

    it('reads an active charge past expiresAt back as EXPIRADA', async () => {
      const created = (await create(sandboxChargeBody({ expiresIn: 60 }))).json();
      now += 59_000;
      expect((await get(created.id)).json().status).toBe('ATIVA');
      now += 1_000;
      expect((await get(created.id)).json().status).toBe('EXPIRADA');
    });
  });

  describe('POST /charges/:id/simulate', () => {
    it('moves the charge and posts a signed event to its notification URL, then reports the delivery', async () => {
      const created = (await create(sandboxChargeBody({ notificationUrl: receiver.url }))).json();
      const res = await app.inject({ method: 'POST', url: `/charges/${created.id}/simulate`, payload: { event: 'payment.confirmed' } });
      expect(res.statusCode).toBe(202);
      const answer = res.json();
      expect(answer).toMatchObject({
        eventId: expect.stringMatching(/^evt_sbx_/),
        delivered: true,
        status: 200,
        charge: { status: 'CONCLUIDA', paidAt: new Date(now).toISOString() },
      });
      const hook = await receiver.next();
      expect(hook.body).toEqual({
        event: 'payment.confirmed',
        id: answer.eventId,
        created_at: new Date(now).toISOString(),
        data: { id: created.id, txid: created.txid, amount: 10.5, status: 'CONCLUIDA', pix: answer.charge.pix },
      });
      // The paying Pix, as on the charge: the BCB's end-to-end id, what was paid, and the charge's recipient as the payer.
      expect(answer.charge.pix).toEqual({
        endToEndId: expect.stringMatching(/^E99999999\d{12}[a-zA-Z0-9]{11}$/),
        amount: '10.50',
        payer: created.recipient,
        paidAt: new Date(now).toISOString(),
      });
      expect(hook.headers['content-type']).toBe('application/json');
      expect(verifySandboxSignature(hook.headers['x-sandbox-signature'], hook.rawBody, SECRET)).toBe(true);
    });

    it.each([
      ['payment.expired', 'EXPIRADA'],
      ['payment.cancelled', 'CANCELADA'],
      ['payment.failed', 'FALHOU'],
      ['payment.refunded', 'DEVOLVIDA'],
    ])('%s leaves the charge %s', async (event, status) => {
      const created = (await create(sandboxChargeBody({ notificationUrl: receiver.url }))).json();
      await app.inject({ method: 'POST', url: `/charges/${created.txid}/simulate`, payload: { event } });
      await receiver.next();
      expect((await get(created.id)).json().status).toBe(status);
    });

    it('reports an amount override in the event (for mismatch tests), not in the charge', async () => {
      const created = (await create(sandboxChargeBody({ notificationUrl: receiver.url }))).json();
      await app.inject({ method: 'POST', url: `/charges/${created.id}/simulate`, payload: { event: 'payment.confirmed', amount: '0.01' } });
      expect(((await receiver.next()).body as { data: { amount: number } }).data.amount).toBe(0.01);
      expect((await get(created.id)).json().amount).toBe('10.50');
    });

    it('answers delivered:false, status:null when nobody listens at the notification URL', async () => {
      const created = (await create()).json();
      const res = await app.inject({ method: 'POST', url: `/charges/${created.id}/simulate`, payload: { event: 'payment.failed' } });
      expect(res.json()).toMatchObject({ delivered: false, status: null, charge: { status: 'FALHOU' } });
    });

    it('refuses an unknown event kind (400) and an unknown charge (404)', async () => {
      const created = (await create()).json();
      const kind = await app.inject({ method: 'POST', url: `/charges/${created.id}/simulate`, payload: { event: 'payment.exploded' } });
      expect(kind.statusCode).toBe(400);
      expect(kind.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', field: 'event' } });
      const missing = await app.inject({ method: 'POST', url: '/charges/sbx_nope/simulate', payload: { event: 'payment.confirmed' } });
      expect(missing.statusCode).toBe(404);
    });
  });

  describe('failure injection', () => {
    it.each([
      ['http_400', 400, 'INVALID_REQUEST'],
      ['http_422', 422, 'UNPROCESSABLE'],
      ['http_503', 503, 'UNAVAILABLE'],
    ])('%s refuses before creating anything', async (mode, status, code) => {
      expect((await fail({ mode })).statusCode).toBe(204);
      const body = sandboxChargeBody();
      const res = await create(body);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toEqual({ error: { code, message: expect.any(String) } });
      expect((await get(body.txid)).statusCode).toBe(404);
    });

    it('http_500 happens after the charge is created, so a retry gets that charge with 200', async () => {
      await fail({ mode: 'http_500' });
      const body = sandboxChargeBody();
      expect((await create(body)).statusCode).toBe(500);
      const retry = await create(body);
      expect(retry.statusCode).toBe(200);
      expect(retry.json().txid).toBe(body.txid);
    });

    it('malformed answers first with a body that is not JSON, then with JSON of the wrong shape', async () => {
      await fail({ mode: 'malformed', count: 2 });
      const first = await create();
      expect(first.statusCode).toBe(201);
      expect(() => JSON.parse(first.body)).toThrow();
      const second = await create();
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual({ data: expect.objectContaining({ status: 'ATIVA' }) });
    });

    it('counts, targets an operation, and leaves the rest alone', async () => {
      await fail({ mode: 'http_503', count: 2, operation: 'get' });
      const created = await create();
      expect(created.statusCode).toBe(201);
      expect((await get(created.json().id)).statusCode).toBe(503);
      expect((await get(created.json().id)).statusCode).toBe(503);
      expect((await get(created.json().id)).statusCode).toBe(200);
    });

    it('is consumed in order, and DELETE clears what is left', async () => {
      await fail({ mode: 'http_400' });
      await fail({ mode: 'http_422' });
      await fail({ mode: 'http_503' });
      expect((await create()).statusCode).toBe(400);
      expect((await create()).statusCode).toBe(422);
      expect((await app.inject({ method: 'DELETE', url: '/_control/failures' })).statusCode).toBe(204);
      expect((await create()).statusCode).toBe(201);
    });

    it('refuses an unknown mode or a bad count', async () => {
      expect((await fail({ mode: 'explode' })).statusCode).toBe(400);
      expect((await fail({ mode: 'timeout', count: 0 })).statusCode).toBe(400);
      expect((await fail({ mode: 'timeout', operation: 'delete' })).statusCode).toBe(400);
    });
  });

  it('GET /health answers {status:"ok"}; unknown routes are 404 in the sandbox shape', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    const res = await app.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});

describe('sandbox PSP server limits', () => {
  it('keeps at most maxCharges charges, forgetting the oldest', async () => {
    const app = Fastify();
    await app.register(sandboxServer, { ...OPEN, maxCharges: 2 });
    const bodies = [sandboxChargeBody(), sandboxChargeBody(), sandboxChargeBody()];
    for (const body of bodies) await app.inject({ method: 'POST', url: '/charges', payload: body, headers: { 'idempotency-key': body.txid } });
    const kept = (await app.inject({ method: 'GET', url: '/_control/charges' })).json<{ txid: string }[]>();
    expect(kept.map((charge) => charge.txid)).toEqual([bodies[1]!.txid, bodies[2]!.txid]);
    expect((await app.inject({ method: 'GET', url: `/charges/${bodies[0]!.txid}` })).statusCode).toBe(404);
    await app.close();
  });

  it('with notificationUrlPrefix, refuses charges that would notify anywhere else', async () => {
    const app = Fastify();
    await app.register(sandboxServer, { ...OPEN, notificationUrlPrefix: 'https://pix.example.com/webhooks/' });
    const post = (notificationUrl: string) => {
      const body = sandboxChargeBody({ notificationUrl });
      return app.inject({ method: 'POST', url: '/charges', payload: body, headers: { 'idempotency-key': body.txid } });
    };
    const refused = await post('http://169.254.169.254/latest/meta-data');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', field: 'notificationUrl' } });
    expect((await post('https://pix.example.com/webhooks/sandbox')).statusCode).toBe(201);
    await app.close();
  });

  it('with notificationUrlPrefix, refuses recurrences that would post their callbacks anywhere else', async () => {
    const app = Fastify();
    await app.register(sandboxServer, { ...OPEN, notificationUrlPrefix: 'https://pix.example.com/webhooks/' });
    const post = (notificationUrl: string) => {
      const recurrenceId = `rec_${randomBytes(6).toString('hex')}`;
      const payload = {
        recurrenceId,
        contract: { id: 'c1' },
        debtor: { document: '12345678909', name: 'Ana Souza' },
        frequency: 'monthly',
        amount: '49.90',
        startDate: brasiliaDate(new Date()),
        retryPolicy: 'none',
        journey: 'qr',
        expiresIn: 3600,
        notificationUrl,
      };
      return app.inject({ method: 'POST', url: '/recurrences', payload, headers: { 'idempotency-key': recurrenceId } });
    };
    const refused = await post('http://169.254.169.254/latest/meta-data');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: 'INVALID_REQUEST', field: 'notificationUrl' } });
    expect((await post('https://pix.example.com/webhooks/sandbox')).statusCode).toBe(201);
    await app.close();
  });

  it('answers 401 in its own shape to every route but /health when authorize() refuses, before reading the body', async () => {
    const app = Fastify();
    await app.register(sandboxServer, { authorize: (request) => request.headers.authorization === 'Bearer let-me-in', allowPrivateNotificationUrls: true });
    const body = sandboxChargeBody();
    const routes = [
      { method: 'POST' as const, url: '/charges', payload: body, headers: { 'idempotency-key': body.txid } },
      { method: 'GET' as const, url: `/charges/${body.txid}` },
      { method: 'POST' as const, url: `/charges/${body.txid}/simulate`, payload: { event: 'payment.confirmed' } },
      { method: 'GET' as const, url: '/_control/charges' },
      { method: 'POST' as const, url: '/_control/failures', payload: { mode: 'http_500' } },
      { method: 'DELETE' as const, url: '/_control/failures' },
      { method: 'POST' as const, url: '/recurrences', payload: {} },
      { method: 'GET' as const, url: '/recurrences/sbxrec_1' },
      { method: 'POST' as const, url: '/recurrences/sbxrec_1/simulate', payload: { action: 'authorize' } },
      { method: 'PUT' as const, url: `/recurring-charges/${body.txid}`, payload: {} },
      { method: 'POST' as const, url: `/recurring-charges/${body.txid}/retries/2026-03-10`, payload: {} },
      { method: 'GET' as const, url: '/nope' },
      { method: 'POST' as const, url: '/charges', payload: '{"not json', headers: { 'content-type': 'application/json' } },
    ];
    for (const route of routes) {
      const res = await app.inject(route);
      expect({ route: `${route.method} ${route.url}`, status: res.statusCode, body: res.json() }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 401,
        body: { error: { code: 'UNAUTHORIZED', message: expect.stringContaining('credentials') } },
      });
    }
    expect((await app.inject({ method: 'GET', url: '/_control/charges', headers: { authorization: 'Bearer let-me-in' } })).json()).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    await app.close();
  });

  it('answers an error thrown by authorize() with its status and headers, in the sandbox shape', async () => {
    const app = Fastify();
    const tooMany = Object.assign(new Error('Too many failed attempts.'), { status: 429, headers: { 'retry-after': '7' } });
    await app.register(sandboxServer, { authorize: () => Promise.reject(tooMany), allowPrivateNotificationUrls: true });
    const res = await app.inject({ method: 'GET', url: '/_control/charges' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.json()).toEqual({ error: { code: 'RATE_LIMITED', message: 'Too many failed attempts.' } });
    await app.close();
  });

  it('keeps the merchant-webhook URL policy for notification URLs when private addresses are not allowed', async () => {
    const app = Fastify();
    await app.register(sandboxServer, { authorize: () => true, allowPrivateNotificationUrls: false });
    const post = (notificationUrl: string) => {
      const body = sandboxChargeBody({ notificationUrl });
      return app.inject({ method: 'POST', url: '/charges', payload: body, headers: { 'idempotency-key': body.txid } });
    };
    for (const url of [
      'https://169.254.169.254/latest/meta-data',
      'https://127.0.0.1:3000/admin/api/merchants',
      'https://[::1]/',
      'https://10.0.0.7/hook',
      'http://93.184.215.14/hook',
    ]) {
      const refused = await post(url);
      expect({ url, status: refused.statusCode, body: refused.json() }).toEqual({
        url,
        status: 400,
        body: { error: { code: 'INVALID_REQUEST', field: 'notificationUrl', message: expect.stringMatching(/^notificationUrl must /) } },
      });
    }
    expect((await post('https://93.184.215.14/webhooks/sandbox')).statusCode).toBe(201);
    await app.close();
  });

  it('a held (timeout) request does not keep the server from closing', async () => {
    const app = Fastify();
    await app.register(sandboxServer, OPEN);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    await fetch(`${url}/_control/failures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"mode":"timeout","operation":"create"}' });
    const body = sandboxChargeBody();
    const held = fetch(`${url}/charges`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': body.txid }, body: JSON.stringify(body) });
    const outcome = held.then(
      () => 'answered',
      () => 'dropped',
    );
    // The charge exists before the answer is withheld (the PSP acted; only its answer is lost).
    for (let i = 0; i < 50 && (await fetch(`${url}/charges/${body.txid}`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 10));
    expect((await fetch(`${url}/charges/${body.txid}`)).status).toBe(200);
    await app.close();
    await expect(outcome).resolves.toBe('dropped');
  });
});

describe('sandbox PSP server posting its callbacks', () => {
  /** A notification URL that answers as `answer` says, recording what reached it. */
  async function endpoint(answer: (res: ServerResponse) => void): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      req.resume();
      req.on('end', () => answer(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    return {
      url,
      hits,
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  async function simulateTo(notificationUrl: string, webhookTimeoutMs?: number) {
    const app = Fastify();
    await app.register(sandboxServer, { ...OPEN, webhookTimeoutMs });
    const body = sandboxChargeBody({ notificationUrl });
    const created = (await app.inject({ method: 'POST', url: '/charges', payload: body, headers: { 'idempotency-key': body.txid } })).json<{ id: string }>();
    const started = Date.now();
    const res = await app.inject({ method: 'POST', url: `/charges/${created.id}/simulate`, payload: { event: 'payment.confirmed' } });
    await app.close();
    return { answer: res.json<{ delivered: boolean; status: number | null }>(), tookMs: Date.now() - started };
  }

  it('reports the status of an answer that is not a 2xx, as not delivered', async () => {
    const failing = await endpoint((res) => res.writeHead(500).end('down'));
    expect((await simulateTo(failing.url)).answer).toMatchObject({ delivered: false, status: 500 });
    expect(failing.hits).toEqual(['/hook']);
    await failing.close();
  });

  it('follows no redirect: a 302 is the answer', async () => {
    const target = await endpoint((res) => res.writeHead(200).end());
    const redirecting = await endpoint((res) => res.writeHead(302, { location: target.url }).end());
    expect((await simulateTo(redirecting.url)).answer).toMatchObject({ delivered: false, status: 302 });
    expect(target.hits).toEqual([]);
    await redirecting.close();
    await target.close();
  });

  it('gives up on an endpoint that does not answer within webhookTimeoutMs: not delivered, no status', async () => {
    const silent = await endpoint(() => undefined);
    const { answer, tookMs } = await simulateTo(silent.url, 300);
    expect(answer).toMatchObject({ delivered: false, status: null });
    expect(tookMs).toBeLessThan(3_000);
    await silent.close();
  });

  it('is delivered at the answer whatever its body: a large one is not waited for', async () => {
    const chatty = await endpoint((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(256 * 1024));
      // The rest never comes: the post is answered at its status.
    });
    expect((await simulateTo(chatty.url, 2_000)).answer).toMatchObject({ delivered: true, status: 200 });
    await chatty.close();
  });
});

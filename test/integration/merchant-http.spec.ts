import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pinnedLookup } from '../../src/common/net/webhook-url-policy';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { attemptError, AttemptTimeout, MERCHANT_WEBHOOKS_CHANNEL, type MerchantRequest, postToMerchant } from '../../src/deliveries/merchant-http';

/** Merchant webhooks through the real transport, against a local HTTP server. */
describe('postToMerchant', () => {
  let server: Server;
  let port: number;
  let handle: (req: IncomingMessage, res: ServerResponse) => void;
  const received: { path: string; body: Buffer; host: string | undefined }[] = [];
  let transport: HttpTransport;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: Buffer.concat(chunks), host: req.headers.host });
        handle(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    received.length = 0;
    transport = new HttpTransport();
  });
  afterEach(() => transport.close());
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  // A host name nobody resolves: the pinned lookup is what sends the socket to 127.0.0.1.
  const post = (path: string, timeoutMs = 2_000, extra: Partial<MerchantRequest> = {}) =>
    postToMerchant(transport, {
      url: new URL(`http://merchant.invalid:${port}${path}`),
      lookup: pinnedLookup({ address: '127.0.0.1', family: 4 }),
      headers: { 'content-type': 'application/json', 'webhook-signature': 'v1,abc' },
      body: Buffer.from('{"event":"payment.confirmed","amount":10.5,"name":"Ação"}', 'utf8'),
      timeoutMs,
      deadline: performance.now() + timeoutMs,
      ...extra,
    });

  it('connects to the pinned address, sends the body bytes exactly, and answers status and headers', async () => {
    handle = (_req, res) => res.writeHead(503, { 'retry-after': '120' }).end('busy');
    const answer = await post('/hook');
    expect(answer).toMatchObject({ statusCode: 503, error: null, headers: { 'retry-after': '120' } });
    expect(received[0]).toMatchObject({ path: '/hook', host: `merchant.invalid:${port}` });
    expect(received[0]!.body.equals(Buffer.from('{"event":"payment.confirmed","amount":10.5,"name":"Ação"}', 'utf8'))).toBe(true);
  });

  it('answers a redirect as it is and never follows it', async () => {
    handle = (req, res) => (req.url === '/hook' ? res.writeHead(302, { location: '/moved' }).end() : res.writeHead(200).end());
    await expect(post('/hook')).resolves.toMatchObject({ statusCode: 302, headers: { location: '/moved' } });
    expect(received.map((r) => r.path)).toEqual(['/hook']);
  });

  it('is answered at the headers: a body larger than 64 KiB, or one that never ends, does not fail the attempt', async () => {
    handle = (_req, res) => res.writeHead(200).end('x'.repeat(1024 * 1024));
    await expect(post('/big')).resolves.toMatchObject({ statusCode: 200, error: null });
    handle = (_req, res) => res.writeHead(200).write('{"still":');
    await expect(post('/endless', 300)).resolves.toMatchObject({ statusCode: 200, error: null });
  });

  it('keeps the first KiB of the answer body, cut at a whole UTF-8 character, and of an endless one what came in time', async () => {
    // 3 + 3 × 700 bytes: byte 1,024 is the second byte of a "€", which must not be split.
    const body = `ok:${'€'.repeat(700)}`;
    handle = (_req, res) => res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
    const answer = await post('/big');
    expect(answer).toMatchObject({ statusCode: 500, error: null, bodyExcerpt: body.slice(0, 3 + 340) });
    expect(Buffer.byteLength(answer.bodyExcerpt!, 'utf8')).toBe(1023);
    handle = (_req, res) => res.writeHead(200).end('{"a":1}');
    await expect(post('/small')).resolves.toMatchObject({ statusCode: 200, bodyExcerpt: '{"a":1}' });
    handle = (_req, res) => res.writeHead(503).write('{"still":');
    await expect(post('/endless', 300)).resolves.toMatchObject({ statusCode: 503, error: null, bodyExcerpt: '{"still":' });
    handle = () => undefined;
    await expect(post('/hold', 200)).resolves.toMatchObject({ statusCode: null, bodyExcerpt: null });
  });

  it('records the whole budget when no answer comes in time, and the code and words when nobody listens', async () => {
    handle = () => undefined;
    await expect(post('/hold', 200)).resolves.toMatchObject({ statusCode: null, error: 'timeout after 200 ms' });
    const closed = await post('/hook', 2_000, { url: new URL('http://merchant.invalid:1/hook') });
    expect(closed).toMatchObject({ statusCode: null, error: expect.stringMatching(/^(ECONNREFUSED: )?connect ECONNREFUSED 127\.0\.0\.1:1$/) as string });
  });

  it('sends once more on a fresh socket when the kept-alive one was closed while idle', async () => {
    // The merchant had closed the kept-alive socket: the second request on it meets a reset.
    const served = new WeakMap<Socket, number>();
    handle = (req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      if (count > 1) req.socket.destroy();
      else res.writeHead(204).end();
    };
    // Read to its end (a forward is answered at its headers), so the socket is back in the pool.
    const channel = { key: MERCHANT_WEBHOOKS_CHANNEL, lookup: pinnedLookup({ address: '127.0.0.1', family: 4 }) };
    const url = new URL(`http://merchant.invalid:${port}/first`);
    await expect(transport.send({ label: 'Test', method: 'POST', url, channel, timeoutMs: 2_000 })).resolves.toMatchObject({ status: 204 });
    await expect(post('/second')).resolves.toMatchObject({ statusCode: 204, error: null });
    expect(received.map((r) => r.path)).toEqual(['/first', '/second', '/second']);
  });

  it('keeps the time-out of DNS as it was', () => {
    expect(attemptError(new AttemptTimeout(10_000), 10_000)).toBe('timeout after 10000 ms');
  });
});

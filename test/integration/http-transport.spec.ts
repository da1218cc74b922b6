import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { testPki } from '../../src/testing/certificates';
import { eventually } from '../helpers/eventually';
import { UpstreamError } from '../../src/providers/provider-adapter';
import { jsonOf } from '../../src/providers/support/answers';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import type { OutboundRequest } from '../../src/providers/transport/transport';

const pki = testPki();
const material = { certificatePem: pki.client.cert, privateKeyPem: pki.client.key, caPem: pki.ca.cert };

describe('HttpTransport over mutual TLS', () => {
  let server: Server;
  let origin: string;
  let transport: HttpTransport;
  let holds: (() => void)[] = [];
  const seenOnSocket = new WeakMap<Socket, number>();
  let connections = 0;

  beforeAll(async () => {
    server = createServer({ key: pki.server.key, cert: pki.server.cert, ca: [pki.ca.cert], requestCert: true, rejectUnauthorized: true }, (req, res) => {
      const count = (seenOnSocket.get(req.socket) ?? 0) + 1;
      seenOnSocket.set(req.socket, count);
      const path = req.url ?? '/';
      req.resume();
      if (path.startsWith('/hold')) {
        holds.push(() => void (res.headersSent || res.writeHead(200).end('{}')));
        return;
      }
      if (path.startsWith('/drop')) return req.socket.destroy();
      // The PSP closed this kept-alive socket while it sat idle: the second request on it meets a reset.
      if (path.startsWith('/stale') && count > 1) return req.socket.destroy();
      if (path.startsWith('/redirect')) return res.writeHead(302, { location: `${origin}/ok` }).end();
      if (path.startsWith('/large')) return res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(4096)}"`);
      // RFC 9110 section 12.5.3: with no Accept-Encoding any coding is acceptable, so a PSP may compress.
      const json = Buffer.from(JSON.stringify({ compressed: path }));
      if (path.startsWith('/gzip')) return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(json));
      if (path.startsWith('/deflate')) return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' }).end(deflateSync(json));
      if (path.startsWith('/br')) return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(brotliCompressSync(json));
      if (path.startsWith('/bomb')) return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(`"${'x'.repeat(1 << 20)}"`));
      if (path.startsWith('/corrupt-gzip')) return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('not gzip at all');
      if (path.startsWith('/zstd')) return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' }).end('(zstd bytes)');
      // RFC 8259 section 8.1: a parser may ignore a byte order mark.
      if (path.startsWith('/bom')) return res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(`\ufeff${JSON.stringify({ bom: true })}`);
      // A server that negotiates strictly: its errors are application/problem+json (RFC 7807), and an
      // Accept that does not admit them gets 406 instead of the problem.
      if (path.startsWith('/negotiated-problem')) {
        const accept = String(req.headers.accept ?? '*/*');
        if (!/(^|,)\s*(application\/problem\+json|application\/\*|\*\/\*)\s*(;|,|$)/.test(accept)) return res.writeHead(406).end();
        return res
          .writeHead(404, { 'content-type': 'application/problem+json' })
          .end(JSON.stringify({ type: 'https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado', title: 'Não encontrado', status: 404 }));
      }
      if (path.startsWith('/problem')) {
        return res.writeHead(400, { 'content-type': 'application/problem+json' }).end(
          JSON.stringify({
            type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
            title: 'Cobrança inválida.',
            status: 400,
            detail: 'O campo cob.valor.original é zero.',
          }),
        );
      }
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ method: req.method, path, auth: req.headers.authorization ?? null, accept: req.headers.accept, acceptEncoding: req.headers['accept-encoding'] }));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    transport = new HttpTransport();
  });
  afterEach(() => {
    holds.forEach((release) => release());
    holds = [];
    transport.close();
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const channel = { key: 'pa_1', tls: material };
  const call = (path: string, extra: Partial<OutboundRequest> = {}) =>
    transport.send({ label: 'Test: read', method: 'GET', url: new URL(`${origin}${path}`), channel, timeoutMs: 2_000, ...extra });

  async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(error)}`);
    return error;
  }

  it('presents the client certificate and returns the answer, whatever its status', async () => {
    const answer = await call('/ok', { method: 'PUT', body: '{"a":1}', headers: { authorization: 'Bearer t' } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ method: 'PUT', path: '/ok', auth: 'Bearer t' });
    await expect(call('/problem')).resolves.toMatchObject({ status: 400 });
  });

  it("accepts the Pix API's error bodies (application/problem+json) as well as JSON: a strict server answers the problem, not 406", async () => {
    expect(JSON.parse((await call('/ok')).text)).toMatchObject({ accept: expect.stringContaining('application/problem+json') });
    const answer = await call('/negotiated-problem');
    expect(answer.status).toBe(404);
    expect(jsonOf(answer)).toMatchObject({ title: 'Não encontrado' });
  });

  it('says which content codings it reads, and reads gzip, deflate and br answers', async () => {
    expect(JSON.parse((await call('/ok')).text)).toMatchObject({ acceptEncoding: 'gzip, deflate, br' });
    for (const path of ['/gzip', '/deflate', '/br']) expect(jsonOf(await call(path))).toEqual({ compressed: path });
  });

  it('is malformed when a compressed answer is broken, in a coding it did not ask for, or larger than the limit once decoded', async () => {
    await expect(failure(call('/corrupt-gzip'))).resolves.toMatchObject({ kind: 'malformed' });
    await expect(failure(call('/zstd'))).resolves.toMatchObject({ kind: 'malformed' });
    await expect(failure(call('/bomb', { maxResponseBytes: 64 * 1024 }))).resolves.toMatchObject({ kind: 'malformed' });
  });

  it('reads JSON that starts with a byte order mark', async () => {
    expect(jsonOf(await call('/bom'))).toEqual({ bom: true });
  });

  it('keeps the connection alive between calls of an account', async () => {
    const before = connections;
    await call('/ok');
    await call('/ok');
    expect(connections - before).toBe(1);
  });

  it('answers a redirect as it is, never following it', async () => {
    const answer = await call('/redirect');
    expect(answer).toMatchObject({ status: 302, headers: { location: `${origin}/ok` } });
  });

  it('is a timeout when no answer comes in time, naming the call but not its URL', async () => {
    const error = await failure(call('/hold?gw-app-key=secret-app-key', { timeoutMs: 100 }));
    expect(error).toMatchObject({ kind: 'timeout', upstreamStatus: undefined });
    expect(error.message).toBe('Test: read: no answer within 100 ms');
    expect(error.ambiguous).toBe(true);
  });

  it('is a network failure when the connection drops without an answer', async () => {
    await expect(failure(call('/drop'))).resolves.toMatchObject({ kind: 'network' });
  });

  it('is a network failure when nobody listens', async () => {
    const closed = new URL(origin);
    closed.port = '1';
    await expect(failure(call('/', { url: closed }))).resolves.toMatchObject({ kind: 'network', message: 'Test: read: ECONNREFUSED' });
  });

  it('is a network failure when the server refuses the certificate in the handshake', async () => {
    const untrusted = { key: 'pa_untrusted', tls: { certificatePem: pki.untrustedClient.cert, privateKeyPem: pki.untrustedClient.key, caPem: pki.ca.cert } };
    await expect(failure(call('/ok', { channel: untrusted }))).resolves.toMatchObject({ kind: 'network' });
  });

  it("is a network failure when the server's certificate is not vouched for (the account's extra CA is what makes it trusted)", async () => {
    const noCa = { key: 'pa_no_ca', tls: { ...material, caPem: null } };
    const error = await failure(call('/ok', { channel: noCa }));
    expect(error).toMatchObject({ kind: 'network' });
    expect((error.cause as Error).message).toMatch(/certificate/i);
  });

  it('is malformed when the answer is larger than the limit', async () => {
    await expect(failure(call('/large', { maxResponseBytes: 1024 }))).resolves.toMatchObject({ kind: 'malformed' });
  });

  it('sends a call once more on a fresh connection when the kept-alive one was closed under it', async () => {
    await expect(call('/stale')).resolves.toMatchObject({ status: 200 });
    await expect(call('/stale')).resolves.toMatchObject({ status: 200 });
  });

  it('sends it once more only: a PSP that drops it twice is a network failure', async () => {
    // Two kept-alive sockets, each of which the server drops on its next request.
    await Promise.all([call('/stale'), call('/stale')]);
    await expect(failure(call('/stale'))).resolves.toMatchObject({ kind: 'network' });
  });

  it("never carries the request's URL, headers or body into the error, its message or its cause", async () => {
    const secrets = ['secret-app-key', 'Bearer secret-token', '12345678909'];
    const errors = [
      await failure(call('/hold?gw-app-key=secret-app-key', { timeoutMs: 50, method: 'PUT', headers: { authorization: secrets[1]! }, body: '{"cpf":"12345678909"}' })),
      await failure(call('/drop?gw-app-key=secret-app-key', { method: 'PUT', headers: { authorization: secrets[1]! }, body: '{"cpf":"12345678909"}' })),
    ];
    for (const error of errors) {
      const seen = JSON.stringify({ message: error.message, cause: String(error.cause), own: Object.entries(error), causeOwn: Object.entries(error.cause as object) });
      for (const secret of secrets) expect(seen).not.toContain(secret);
      expect(Object.keys(error.cause as object)).toEqual([]);
    }
  });

  it('ends early, as a network failure, when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = failure(call('/hold', { signal: controller.signal }));
    controller.abort();
    await expect(pending).resolves.toMatchObject({ kind: 'network', message: 'Test: read: cancelled' });
  });

  it('counts the wait for a free socket in the time of the exchange', async () => {
    const narrow = { key: 'pa_narrow', tls: material, maxSockets: 1 };
    const held = call('/hold', { channel: narrow });
    await expect(failure(call('/ok', { channel: narrow, timeoutMs: 150 }))).resolves.toMatchObject({ kind: 'timeout' });
    holds.splice(0).forEach((release) => release());
    await expect(held).resolves.toMatchObject({ status: 200 });
  });

  it("gives each lane its own sockets: callbacks' read-backs holding every socket of theirs do not delay a payment", async () => {
    const readBacks = Array.from({ length: 20 }, () => call('/hold', { channel: { ...channel, lane: 'callbacks' }, timeoutMs: 10_000 }));
    // Sixteen are on the callbacks lane's sockets (the other four wait for one of them).
    await eventually(
      () => holds.length,
      (n) => n === 16,
    );
    // A payment's budget is too short to wait for any of them: it gets sockets of its own.
    await expect(call('/ok', { channel: { ...channel, lane: 'payments' }, timeoutMs: 1_000 })).resolves.toMatchObject({ status: 200 });
    let answered = 0;
    readBacks.forEach((readBack) => void readBack.then(() => answered++));
    await eventually(
      () => {
        holds.splice(0).forEach((release) => release());
        return answered;
      },
      (n) => n === 20,
    );
  });
});

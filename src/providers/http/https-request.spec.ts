import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { testPki } from '../../../test/fakes/certificates';
import { UpstreamError } from '../provider-adapter';
import { MtlsAgentPool } from './mtls-agent';
import { httpFailure, jsonObjectOf, jsonOf, problemOf, unexpectedAnswer } from '../transport/answers';
import { type HttpsAnswer, httpsRequest } from './https-request';

const pki = testPki();
const material = { certificatePem: pki.client.cert, privateKeyPem: pki.client.key, caPem: pki.ca.cert };

describe('httpsRequest', () => {
  let server: Server;
  let origin: string;
  let pool: MtlsAgentPool;
  let holds: (() => void)[] = [];
  const seenOnSocket = new WeakMap<Socket, number>();

  beforeAll(async () => {
    server = createServer({ key: pki.server.key, cert: pki.server.cert, ca: [pki.ca.cert], requestCert: true, rejectUnauthorized: true }, (req, res) => {
      const count = (seenOnSocket.get(req.socket) ?? 0) + 1;
      seenOnSocket.set(req.socket, count);
      const path = req.url ?? '/';
      req.resume();
      if (path.startsWith('/hold')) {
        holds.push(() => res.writeHead(200).end('{}'));
        return;
      }
      if (path.startsWith('/drop')) return req.socket.destroy();
      // The PSP closed this kept-alive socket while it sat idle: the second request on it meets a reset.
      if (path.startsWith('/stale') && count > 1) return req.socket.destroy();
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
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    pool = new MtlsAgentPool();
  });
  afterEach(() => {
    holds.forEach((release) => release());
    holds = [];
    pool.destroy();
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const call = (path: string, extra: Partial<Parameters<typeof httpsRequest>[0]> = {}) =>
    httpsRequest({ label: 'Test: read', method: 'GET', url: new URL(`${origin}${path}`), agent: pool.agentFor('pa_1', material), timeoutMs: 2_000, ...extra });

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
    await call('/ok');
    const agent = pool.agentFor('pa_1', material);
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
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
    await expect(failure(httpsRequest({ label: 'Test', method: 'GET', url: closed, agent: pool.agentFor('pa_1', material), timeoutMs: 2_000 }))).resolves.toMatchObject({
      kind: 'network',
    });
  });

  it('is a network failure when the server refuses the certificate in the handshake', async () => {
    const agent = pool.agentFor('pa_untrusted', { certificatePem: pki.untrustedClient.cert, privateKeyPem: pki.untrustedClient.key, caPem: pki.ca.cert });
    await expect(failure(httpsRequest({ label: 'Test', method: 'GET', url: new URL(`${origin}/ok`), agent, timeoutMs: 2_000 }))).resolves.toMatchObject({ kind: 'network' });
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
});

describe('reading PSP errors', () => {
  const answer = (status: number, body: unknown): HttpsAnswer => ({ status, headers: {}, text: typeof body === 'string' ? body : JSON.stringify(body) });

  it("reads an RFC 7807 problem: its code is the type's last segment, its words the title and detail", () => {
    const error = httpFailure(
      'Efí: create charge',
      answer(400, { type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', title: 'Cobrança inválida.', status: 400, detail: 'O campo cob.valor.original é zero.' }),
    );
    expect(error).toMatchObject({
      kind: 'http',
      upstreamStatus: 400,
      providerCode: 'CobOperacaoInvalida',
      providerMessage: 'Cobrança inválida.: O campo cob.valor.original é zero.',
      message: 'Efí: create charge: HTTP 400 CobOperacaoInvalida',
    });
    expect(error.ambiguous).toBe(false);
  });

  it("carries the problem's violacoes (what was refused, and why) into its words", () => {
    const problem = {
      type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
      title: 'Cobrança inválida.',
      status: 400,
      detail: 'A requisição não respeita o schema.',
      violacoes: [{ razao: 'O campo não respeita o schema.', propriedade: 'cob.devedor.cpf', valor: '123' }, { razao: 'Valor zero.', propriedade: 'cob.valor.original' }, 'junk'],
    };
    expect(problemOf(problem)).toEqual({
      code: 'CobOperacaoInvalida',
      message: 'Cobrança inválida.: A requisição não respeita o schema. (cob.devedor.cpf: O campo não respeita o schema.; cob.valor.original: Valor zero.)',
      violations: [
        { property: 'cob.devedor.cpf', reason: 'O campo não respeita o schema.' },
        { property: 'cob.valor.original', reason: 'Valor zero.' },
      ],
    });
    expect(problemOf({ ...problem, detail: undefined, violacoes: [{ razao: 'Sem propriedade.' }] }).message).toBe('Cobrança inválida. (Sem propriedade.)');
  });

  it('gives no code for about:blank problems, and keeps the title', () => {
    expect(problemOf({ type: 'about:blank', title: 'Unauthorized', status: 401 })).toEqual({ code: undefined, message: 'Unauthorized' });
  });

  it("reads OAuth2 errors and Banco do Brasil's two shapes", () => {
    expect(problemOf({ error: 'invalid_client', error_description: 'unknown client' })).toEqual({ code: 'invalid_client', message: 'unknown client' });
    expect(problemOf({ erros: [{ codigo: 4769515, versao: '1', mensagem: 'Txid inválido.', ocorrencia: 'x' }] })).toEqual({ code: '4769515', message: 'Txid inválido.' });
    expect(problemOf({ statusCode: 401, error: 'Unauthorized', message: 'Bad Credentials' })).toEqual({ code: 'Unauthorized', message: 'Bad Credentials' });
  });

  it('cuts long provider text', () => {
    expect(problemOf({ title: 'x'.repeat(1000) }).message).toHaveLength(300);
  });

  it('carries no code for a body that is not JSON, and says 5xx are ambiguous', () => {
    const error = httpFailure('Test', answer(503, '<html>Service Unavailable</html>'));
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 503, providerCode: undefined, providerMessage: undefined });
    expect(error.ambiguous).toBe(true);
  });

  it('calls an unexpected 2xx malformed, and anything else http', () => {
    expect(unexpectedAnswer('Test', answer(204, ''))).toMatchObject({ kind: 'malformed', upstreamStatus: 204 });
    expect(unexpectedAnswer('Test', answer(404, { title: 'Não encontrado' }))).toMatchObject({ kind: 'http', upstreamStatus: 404 });
  });

  it('calls a body that is not a JSON object malformed', () => {
    expect(() => jsonObjectOf('Test', answer(200, '{"resultado": <html>'))).toThrow(expect.objectContaining({ kind: 'malformed' }));
    expect(() => jsonObjectOf('Test', answer(200, [1, 2]))).toThrow(expect.objectContaining({ kind: 'malformed' }));
    expect(jsonObjectOf('Test', answer(200, { a: 1 }))).toEqual({ a: 1 });
  });
});

import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { testPki } from '../../../test/fakes/certificates';
import { UpstreamError } from '../provider-adapter';
import { MtlsAgentPool } from './mtls-agent';
import { type HttpsAnswer, httpFailure, httpsRequest, jsonObjectOf, problemOf, unexpectedAnswer } from './https-request';

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
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, path, auth: req.headers.authorization ?? null }));
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
    expect(JSON.parse(answer.text)).toEqual({ method: 'PUT', path: '/ok', auth: 'Bearer t' });
    await expect(call('/problem')).resolves.toMatchObject({ status: 400 });
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

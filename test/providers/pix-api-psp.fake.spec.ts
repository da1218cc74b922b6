import { type IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { createSecureContext } from 'node:tls';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { parsePix } from 'pix-utils';
import { type CertAndKey, testPki } from '../../src/testing/certificates';
import { ERRATA, officialDocument, patchedDocument, PixApiValidator, pixApiValidator } from '../fakes/pix-api-openapi';
import { type PixApiPsp, type PixApiPspOptions, startPixApiPsp } from '../fakes/pix-api-psp';
import { eventually } from '../helpers/eventually';
import { emvFields, hasValidCrc } from '../../src/testing/emv';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { WebhookReceiver } from './webhook-receiver';

// The fake PSP itself, through a real HTTPS client presenting client certificates.

const pki = testPki();
const TXID = 'abcdefghijklmnopqrstuvwxyz0123';
const CPF = '12345678909';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

interface CallOptions {
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** The client certificate; the valid one by default, null for none. */
  cert?: CertAndKey | null;
  /** A PKCS#12 bundle instead of `cert`. */
  pfx?: { base64: string; password?: string };
  /** Gives up (and rejects) after this many ms; for a held answer. */
  timeoutMs?: number;
}

/** One HTTPS request on a fresh connection; `target` is a full URL. */
function call(method: string, target: string, options: CallOptions = {}): Promise<Answer> {
  const cert = options.cert === undefined ? pki.client : options.cert;
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | undefined;
  if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  } else if (options.form) {
    payload = new URLSearchParams(options.form).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const identity = options.pfx ? { pfx: Buffer.from(options.pfx.base64, 'base64'), passphrase: options.pfx.password } : cert ? { cert: cert.cert, key: cert.key } : {};
    const req = request(target, { method, headers, ca: pki.ca.cert, ...identity, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const raw = (coding === 'gzip' ? gunzipSync(bytes) : coding === 'deflate' ? inflateSync(bytes) : coding === 'br' ? brotliDecompressSync(bytes) : bytes).toString('utf8');
        let body: unknown;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body });
      });
      res.on('error', reject);
    });
    if (options.timeoutMs) req.setTimeout(options.timeoutMs, () => req.destroy(new Error('client gave up waiting')));
    req.on('error', reject);
    req.end(payload);
  });
}

async function token(psp: PixApiPsp, scope?: string): Promise<string> {
  const basic = Buffer.from(`${psp.clientId}:${psp.clientSecret}`).toString('base64');
  const answer = await call('POST', psp.tokenUrl, { headers: { authorization: `Basic ${basic}` }, form: { grant_type: 'client_credentials', ...(scope ? { scope } : {}) } });
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

function chargeBody(overrides: Record<string, unknown> = {}) {
  return {
    calendario: { expiracao: 3600 },
    devedor: { cpf: CPF, nome: 'Fulano de Tal' },
    valor: { original: '10.50' },
    chave: 'fake-psp-key@example.com',
    solicitacaoPagador: 'Pedido 42',
    ...overrides,
  };
}

describe('the fake Pix API PSP', () => {
  let psp: PixApiPsp;
  let bearer: string;

  const start = async (options: PixApiPspOptions = {}) => {
    await psp?.close();
    psp = await startPixApiPsp(options);
    return psp;
  };

  beforeEach(async () => {
    psp = await startPixApiPsp();
    bearer = await token(psp);
  });

  afterEach(async () => {
    try {
      psp.assertNoViolations();
    } finally {
      await psp.close();
    }
  });

  describe('mutual TLS', () => {
    it('refuses a client without a certificate, with an expired one, or one from another CA, in the handshake', async () => {
      for (const cert of [null, pki.expiredClient, pki.untrustedClient]) {
        await expect(call('GET', `${psp.url}/cob/${TXID}`, { cert, token: bearer })).rejects.toThrow();
      }
      await eventually(
        () => psp.tlsRefusals,
        (n) => n >= 3,
      );
      expect(psp.requests.filter((r) => r.path.startsWith('/v2'))).toEqual([]);
    });

    it('serves a client with a valid certificate, given as PEM or as PKCS#12 with or without a password', async () => {
      expect((await call('GET', `${psp.url}/cob/${TXID}`, { token: bearer })).status).toBe(404);
      expect((await call('GET', `${psp.url}/cob/${TXID}`, { token: bearer, pfx: pki.clientP12 })).status).toBe(404);
      expect((await call('GET', `${psp.url}/cob/${TXID}`, { token: bearer, pfx: pki.clientP12NoPassword })).status).toBe(404);
    });

    it('hands out a certificate with a key that is not its own, which Node refuses to load', () => {
      expect(() => createSecureContext(pki.mismatchedClient)).toThrow(/key values mismatch/);
      expect(() => createSecureContext(pki.client)).not.toThrow();
    });
  });

  describe('OAuth2 client credentials', () => {
    it('issues a bearer token for credentials by HTTP Basic or in the form body, and counts the requests', async () => {
      const byForm = await call('POST', psp.tokenUrl, { form: { grant_type: 'client_credentials', client_id: psp.clientId, client_secret: psp.clientSecret, scope: 'cob.read' } });
      expect(byForm.status).toBe(200);
      expect(byForm.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, scope: 'cob.read' });
      expect(byForm.headers['cache-control']).toBe('no-store');
      expect(psp.tokenRequests).toBe(2); // beforeEach's Basic one and this
      expect(psp.requests.at(-1)!.body).toMatchObject({ client_secret: '<redacted>' });
    });

    it('answers 401 to wrong credentials and 400 to another grant type', async () => {
      const wrong = await call('POST', psp.tokenUrl, { form: { grant_type: 'client_credentials', client_id: psp.clientId, client_secret: 'nope' } });
      expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_client']);
      const grant = await call('POST', psp.tokenUrl, { form: { grant_type: 'password', client_id: psp.clientId, client_secret: psp.clientSecret } });
      expect([grant.status, grant.body.error]).toEqual([400, 'unsupported_grant_type']);
    });

    it('answers 401 without a token, and after expireTokens() to a token that worked, until a new one is fetched', async () => {
      expect((await call('GET', `${psp.url}/cob/${TXID}`)).status).toBe(401);
      expect((await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() })).status).toBe(201);
      psp.expireTokens();
      const expired = await call('GET', `${psp.url}/cob/${TXID}`, { token: bearer });
      expect(expired.status).toBe(401);
      expect(expired.headers['www-authenticate']).toContain('invalid_token');
      expect(expired.headers['content-type']).toBe('application/problem+json');
      expect(psp.requests.at(-1)!.headers.authorization).toBe('Bearer <redacted>');
      expect((await call('GET', `${psp.url}/cob/${TXID}`, { token: await token(psp) })).status).toBe(200);
    });

    it('answers 403 when the token lacks the operation scope', async () => {
      const readOnly = await token(psp, 'cob.read');
      const answer = await call('PUT', `${psp.url}/cob/${TXID}`, { token: readOnly, json: chargeBody() });
      expect([answer.status, answer.body.type]).toEqual([403, 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado']);
    });

    it('lets tokens expire after the configured lifetime', async () => {
      await start({ tokenTtlSeconds: 0 });
      const answer = await call('GET', `${psp.url}/cob/${TXID}`, { token: await token(psp) });
      expect(answer.status).toBe(401);
    });
  });

  describe('charges', () => {
    it('creates (201), reads and cancels a charge, with a BR Code that points at its location', async () => {
      const created = await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() });
      expect(created.status).toBe(201);
      const cob = created.body;
      expect(cob).toMatchObject({ txid: TXID, revisao: 0, status: 'ATIVA', calendario: { expiracao: 3600 }, valor: { original: '10.50' }, devedor: { cpf: CPF } });
      expect(cob.loc).toMatchObject({ id: expect.any(Number), location: cob.location, tipoCob: 'cob' });
      expect(cob.location).not.toMatch(/^https?:/);
      expect(hasValidCrc(cob.pixCopiaECola)).toBe(true);
      expect(emvFields(emvFields(cob.pixCopiaECola).get('26')!).get('25')).toBe(cob.location);
      expect(parsePix(cob.pixCopiaECola)).toMatchObject({ type: 'DYNAMIC', url: cob.location });

      const read = await call('GET', `${psp.url}/cob/${TXID}`, { token: bearer });
      expect([read.status, read.body.location]).toEqual([200, cob.location]);

      const cancelled = await call('PATCH', `${psp.url}/cob/${TXID}`, { token: bearer, json: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
      expect([cancelled.status, cancelled.body.status, cancelled.body.revisao]).toEqual([200, 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 1]);
      expect(psp.charges.get(TXID).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
      const again = await call('PATCH', `${psp.url}/cob/${TXID}`, { token: bearer, json: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
      expect([again.status, again.body.type]).toEqual([400, 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida']);
    });

    it('returns the existing charge when the same txid is PUT again while ATIVA', async () => {
      const first = await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() });
      const second = await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() });
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(psp.charges.size).toBe(1);
    });

    it('revises an ATIVA charge a PUT changes (revisao + 1), as the document lets PUT alter a charge until it is no longer ATIVA', async () => {
      await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() });
      const revised = await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody({ solicitacaoPagador: 'Pedido 43' }) });
      expect([revised.status, revised.body.revisao, revised.body.solicitacaoPagador]).toEqual([201, 1, 'Pedido 43']);
      expect(psp.charges.size).toBe(1);
    });

    it('answers 404 problem JSON for an unknown txid', async () => {
      const answer = await call('GET', `${psp.url}/cob/${TXID}`, { token: bearer });
      expect(answer.status).toBe(404);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(answer.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado', status: 404 });
    });

    it('lists charges created between inicio and fim (GET /cob)', async () => {
      await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() });
      const inicio = new Date(Date.now() - 60_000).toISOString();
      const fim = new Date(Date.now() + 60_000).toISOString();
      const answer = await call('GET', `${psp.url}/cob?inicio=${inicio}&fim=${fim}&cpf=${CPF}`, { token: bearer });
      expect(answer.status).toBe(200);
      expect(answer.body.cobs.map((c: { txid: string }) => c.txid)).toEqual([TXID]);
      expect(answer.body.parametros.paginacao).toMatchObject({ paginaAtual: 0, quantidadeTotalDeItens: 1 });
    });
  });

  describe('Pix Automático: the composite QR of GET /rec/{idRec}?txid=', () => {
    const today = brasiliaDate(new Date());
    const COB_TXID = 'zyxwvutsrqponmlkjihgfedcba0123';
    const recurrence = async (dadosJornada?: { txid: string }): Promise<{ idRec: string; location: string }> => {
      const loc = await call('POST', `${psp.url}/locrec`, { token: bearer });
      const body = {
        vinculo: { contrato: 'CT-1', devedor: { cpf: CPF, nome: 'Fulano de Tal' } },
        calendario: { dataInicial: today, periodicidade: 'MENSAL' },
        valor: { valorRec: '49.90' },
        politicaRetentativa: 'NAO_PERMITE',
        loc: loc.body.id,
        ...(dadosJornada ? { ativacao: { dadosJornada } } : {}),
      };
      const created = await call('POST', `${psp.url}/rec`, { token: bearer, json: body });
      expect(created.status).toBe(201);
      return { idRec: created.body.idRec, location: loc.body.location };
    };
    const readRec = (idRec: string, txid?: string) => call('GET', `${psp.url}/rec/${idRec}${txid ? `?txid=${txid}` : ''}`, { token: bearer });
    const charges = async () => {
      const cobv = await call('PUT', `${psp.url}/cobv/${TXID}`, {
        token: bearer,
        json: { calendario: { dataDeVencimento: addDays(today, 10) }, devedor: { cpf: CPF, nome: 'Fulano de Tal' }, valor: { original: '100.00' }, chave: 'k@example.com' },
      });
      const cob = await call('PUT', `${psp.url}/cob/${COB_TXID}`, { token: bearer, json: chargeBody() });
      expect([cobv.status, cob.status]).toEqual([201, 201]);
      return { cobv: cobv.body, cob: cob.body };
    };

    it("JORNADA_4 with a cobv's txid: its code, then field 80 with the recurrence's location; approved, the journey is JORNADA_4", async () => {
      const { cobv } = await charges();
      const { idRec, location } = await recurrence();
      const read = await readRec(idRec, TXID);
      expect(read.status).toBe(200);
      expect(read.body.dadosQR.jornada).toBe('JORNADA_4');
      const code: string = read.body.dadosQR.pixCopiaECola;
      expect(code.startsWith(cobv.pixCopiaECola.slice(0, -8))).toBe(true);
      expect(hasValidCrc(code)).toBe(true);
      expect(emvFields(emvFields(code).get('26')!).get('25')).toBe(cobv.location);
      expect(emvFields(emvFields(code).get('80')!).get('25')).toBe(location);
      expect((await readRec(idRec)).body.dadosQR.jornada).toBe('JORNADA_2');

      await psp.approveRecurrence(idRec);
      expect(psp.recurrences.get(idRec).ativacao).toEqual({ tipoJornada: 'JORNADA_4' });
      const approved = await readRec(idRec, TXID);
      expect([approved.status, approved.body.dadosQR]).toEqual([200, undefined]);
      const cob = await readRec(idRec, COB_TXID);
      expect([cob.status, cob.body.type]).toEqual([400, 'https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida']);
    });

    it('JORNADA_3 only with the cob the recurrence names; another cob, or no charge, is RecConsultaInvalida; a cobv is never refused for it', async () => {
      await charges();
      const named = await recurrence({ txid: COB_TXID });
      expect((await readRec(named.idRec, COB_TXID)).body.dadosQR.jornada).toBe('JORNADA_3');
      expect((await readRec(named.idRec, TXID)).body.dadosQR.jornada).toBe('JORNADA_4');
      const other = await recurrence();
      for (const txid of [COB_TXID, 'semcobrancasemcobrancasemcobranca']) {
        const refused = await readRec(other.idRec, txid);
        expect([refused.status, refused.body.type, refused.body.violacoes[0].propriedade]).toEqual([400, 'https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida', 'txid']);
      }
    });
  });

  describe('what the document forbids', () => {
    it('answers 400 naming the violation, and records it, for "10.5" as valor.original', async () => {
      const answer = await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody({ valor: { original: '10.5' } }) });
      expect(answer.status).toBe(400);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(answer.body.detail).toContain('body/valor/original must match pattern');
      expect(psp.takeViolations()).toEqual([expect.stringContaining('PUT /cob/{txid}: body/valor/original must match pattern')]);
      expect(psp.charges.size).toBe(0);
    });

    it('answers 400 and records a txid of 20 characters', async () => {
      const answer = await call('PUT', `${psp.url}/cob/${'a'.repeat(20)}`, { token: bearer, json: chargeBody() });
      expect(answer.status).toBe(400);
      expect(psp.takeViolations()).toEqual([expect.stringContaining('path parameter "txid" must match pattern')]);
    });

    it('records a request to an operation the document does not have, or outside the base path', async () => {
      expect((await call('POST', `${psp.url}/charges`, { token: bearer, json: {} })).status).toBe(400);
      expect((await call('GET', `${psp.origin}/cob/${TXID}`, { token: bearer })).status).toBe(400);
      expect(psp.takeViolations()).toEqual([expect.stringContaining('POST /charges: no such operation'), expect.stringContaining('outside the API base path /v2')]);
    });

    it('makes assertNoViolations() throw, listing them', async () => {
      await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody({ chave: undefined }) });
      expect(() => psp.assertNoViolations()).toThrow(/must have required property 'chave'/);
    });
  });

  describe('payments, refunds and callbacks', () => {
    let receiver: WebhookReceiver;
    beforeEach(async () => {
      receiver = await new WebhookReceiver().start();
    });
    afterEach(() => receiver.close());

    it('pay() concludes the charge and posts {"pix":[…]} to the webhook URL + /pix over plain http', async () => {
      await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() });
      const chave = chargeBody().chave;
      expect((await call('PUT', `${psp.url}/webhook/${encodeURIComponent(chave)}`, { token: bearer, json: { webhookUrl: receiver.url } })).status).toBe(200);
      expect((await call('GET', `${psp.url}/webhook/${encodeURIComponent(chave)}`, { token: bearer })).body).toMatchObject({ webhookUrl: receiver.url });

      const { pix, callback } = await psp.pay(TXID, { payer: { name: 'Beltrano', cpf: CPF } });
      expect(pix.endToEndId).toMatch(/^E60701190\d{12}[a-zA-Z0-9]{11}$/);
      expect(callback).toMatchObject({ url: `${receiver.url}/pix`, status: 200, violations: [] });
      const hook = await receiver.next();
      expect(hook.body).toEqual({ pix: [expect.objectContaining({ endToEndId: pix.endToEndId, txid: TXID, valor: '10.50', chave })] });

      const cob = await call('GET', `${psp.url}/cob/${TXID}`, { token: bearer });
      expect([cob.body.status, cob.body.pix[0].endToEndId]).toEqual(['CONCLUIDA', pix.endToEndId]);
      expect((await call('GET', `${psp.url}/pix/${pix.endToEndId}`, { token: bearer })).body).toMatchObject({ valor: '10.50', pagador: { cpf: CPF } });
      const inicio = new Date(Date.now() - 60_000).toISOString();
      const fim = new Date(Date.now() + 60_000).toISOString();
      expect((await call('GET', `${psp.url}/pix?inicio=${inicio}&fim=${fim}`, { token: bearer })).body.pix).toHaveLength(1);
    });

    it('takes a refund and, once it settles, posts the Pix with its devolucoes', async () => {
      await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() });
      await call('PUT', `${psp.url}/webhook/${chargeBody().chave}`, { token: bearer, json: { webhookUrl: receiver.url } });
      const { pix } = await psp.pay(TXID, { amountCents: 1050, postCallback: false });
      const refund = await call('PUT', `${psp.url}/pix/${pix.endToEndId}/devolucao/r1`, { token: bearer, json: { valor: '4.00' } });
      expect(refund.status).toBe(201);
      expect(refund.body).toMatchObject({ id: 'r1', valor: '4.00', status: 'EM_PROCESSAMENTO', rtrId: expect.stringMatching(/^D\d{20}[a-zA-Z0-9]{11}$/) });
      const tooMuch = await call('PUT', `${psp.url}/pix/${pix.endToEndId}/devolucao/r2`, { token: bearer, json: { valor: '7.00' } });
      expect([tooMuch.status, tooMuch.body.type]).toEqual([400, 'https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida']);

      await psp.refundSettles(pix.endToEndId, 'r1', 'DEVOLVIDO');
      const hook = await receiver.next();
      expect((hook.body as { pix: { devolucoes: unknown[] }[] }).pix[0]!.devolucoes).toEqual([expect.objectContaining({ id: 'r1', status: 'DEVOLVIDO' })]);
      expect((await call('GET', `${psp.url}/pix/${pix.endToEndId}/devolucao/r1`, { token: bearer })).body.status).toBe('DEVOLVIDO');
    });

    it('returns money outside the API (the portal, a MED return) under its own id, settled, and posts the Pix with it', async () => {
      await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() });
      await call('PUT', `${psp.url}/webhook/${chargeBody().chave}`, { token: bearer, json: { webhookUrl: receiver.url } });
      const { pix } = await psp.pay(TXID, { amountCents: 1050, postCallback: false });
      const { refund: portal, callback } = await psp.refundOutside(pix.endToEndId, 250, 'ORIGINAL');
      expect(callback).toMatchObject({ status: 200, violations: [] });
      await receiver.next();
      const { refund: med } = await psp.refundOutside(pix.endToEndId, 800, 'MED_FRAUDE');
      const hook = await receiver.next();
      expect((hook.body as { pix: { devolucoes: unknown[] }[] }).pix[0]!.devolucoes).toEqual([
        expect.objectContaining({ id: portal.id, valor: '2.50', natureza: 'ORIGINAL', status: 'DEVOLVIDO' }),
        expect.objectContaining({
          id: med.id,
          valor: '8.00',
          natureza: 'MED_FRAUDE',
          status: 'DEVOLVIDO',
          horario: { solicitacao: expect.any(String), liquidacao: expect.any(String) },
        }),
      ]);
      expect(med.id).toMatch(/^[a-zA-Z0-9]{1,35}$/);
      expect((await call('GET', `${psp.url}/pix/${pix.endToEndId}/devolucao/${med.id}`, { token: bearer })).body).toMatchObject({ natureza: 'MED_FRAUDE' });
      // What is left of the Pix bounds both ways of returning it.
      await expect(psp.refundOutside(pix.endToEndId, 1, 'MED_OPERACIONAL')).rejects.toThrow(/exceed/);
    });

    it('postCallback() posts anything, reporting (not recording) what the document finds wrong', async () => {
      const forged = await psp.postCallback(receiver.url, { pix: [{ endToEndId: 'forged', valor: '1' }] }, { headers: { 'x-forged': '1' } });
      expect(forged.status).toBe(200);
      expect(forged.violations.length).toBeGreaterThan(0);
      expect((await receiver.next()).headers['x-forged']).toBe('1');
      const failed = await psp.postCallback('http://127.0.0.1:1/nobody', { pix: [] });
      expect(failed.error).toBeDefined();
    });
  });

  describe('failure injection', () => {
    const get = () => call('GET', `${psp.url}/cob/${TXID}`, { token: bearer });

    it('down: drops the connection without an answer', async () => {
      psp.fail({ kind: 'down' });
      await expect(get()).rejects.toThrow();
      expect((await get()).status).toBe(404);
    });

    it('status: answers that status with a problem body, `times` times', async () => {
      psp.fail({ kind: 'status', status: 503, times: 2 });
      for (let i = 0; i < 2; i++) {
        const answer = await get();
        expect([answer.status, answer.body.type]).toEqual([503, 'https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel']);
      }
      expect((await get()).status).toBe(404);
    });

    it('slow: holds the answer (a client that will not wait gives up)', async () => {
      psp.fail({ kind: 'slow', delayMs: 60_000 });
      await expect(call('GET', `${psp.url}/cob/${TXID}`, { token: bearer, timeoutMs: 300 })).rejects.toThrow('client gave up waiting');
      expect((await get()).status).toBe(404);
    });

    it('malformed: 200 with a body that is not JSON', async () => {
      psp.fail({ kind: 'malformed' });
      const answer = await get();
      expect(answer.status).toBe(200);
      expect(() => JSON.parse(answer.raw)).toThrow();
    });

    it('problem: the refusal the document describes for the route', async () => {
      psp.fail({ kind: 'problem' });
      const answer = await call('PUT', `${psp.url}/cob/${TXID}`, { token: bearer, json: chargeBody() });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida', violacoes: [expect.anything()] });
    });

    it('path: targets only the matching routes; reset() forgets what is queued', async () => {
      psp.fail({ kind: 'status', status: 500, path: /\/pix/, times: 5 });
      expect((await get()).status).toBe(404);
      expect((await call('GET', `${psp.url}/pix/E60701190202601011200abcdefghijk`, { token: bearer })).status).toBe(500);
      psp.reset();
      expect((await call('GET', `${psp.url}/pix/E60701190202601011200abcdefghijk`, { token: bearer })).status).toBe(404);
    });
  });

  describe('profiles', () => {
    it('Banco do Brasil: the application key is required as the gw-dev-app-key query parameter', async () => {
      await start({ basePath: '/pix/v2', requiredQuery: { 'gw-dev-app-key': 'k' } });
      const t = await token(psp);
      expect(psp.url).toMatch(/\/pix\/v2$/);
      const without = await call('PUT', `${psp.url}/cob/${TXID}`, { token: t, json: chargeBody() });
      expect([without.status, without.body.type]).toEqual([403, 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado']);
      expect((await call('PUT', `${psp.url}/cob/${TXID}?gw-dev-app-key=k`, { token: t, json: chargeBody() })).status).toBe(201);
    });

    it('Sicoob: a client_id header on every call, and the BR Code named brcode', async () => {
      await start({ basePath: '/pix/api/v2', requiredHeaders: { client_id: 'sicoob-id' }, copyPasteField: 'brcode' });
      const t = await token(psp);
      expect((await call('GET', `${psp.url}/cob/${TXID}`, { token: t })).status).toBe(403);
      const created = await call('PUT', `${psp.url}/cob/${TXID}`, { token: t, json: chargeBody(), headers: { client_id: 'sicoob-id' } });
      expect(created.status).toBe(201);
      expect(hasValidCrc(created.body.brcode)).toBe(true);
      expect(created.body.pixCopiaECola).toBeUndefined();
    });

    it('copyPasteOn: the BR Code only in the creation, or only in the reads', async () => {
      await start({ copyPasteOn: 'create' });
      let t = await token(psp);
      expect(hasValidCrc((await call('PUT', `${psp.url}/cob/${TXID}`, { token: t, json: chargeBody() })).body.pixCopiaECola)).toBe(true);
      expect((await call('GET', `${psp.url}/cob/${TXID}`, { token: t })).body.pixCopiaECola).toBeUndefined();
      await start({ copyPasteOn: 'read' });
      t = await token(psp);
      expect((await call('PUT', `${psp.url}/cob/${TXID}`, { token: t, json: chargeBody() })).body.pixCopiaECola).toBeUndefined();
      expect(hasValidCrc((await call('GET', `${psp.url}/cob/${TXID}`, { token: t })).body.pixCopiaECola)).toBe(true);
    });

    it('grantableScopes: invalid_scope for a scope beyond them, and all of them when none is asked for', async () => {
      await start({ grantableScopes: ['cob.read', 'cob.write'] });
      const basic = Buffer.from(`${psp.clientId}:${psp.clientSecret}`).toString('base64');
      const ask = (scope?: string) =>
        call('POST', psp.tokenUrl, { headers: { authorization: `Basic ${basic}` }, form: { grant_type: 'client_credentials', ...(scope ? { scope } : {}) } });
      expect((await ask('cob.read pix.read')).body).toMatchObject({ error: 'invalid_scope' });
      expect((await ask()).body).toMatchObject({ scope: 'cob.read cob.write' });
    });

    it('literalPatterns: refuses, and records, any devedor.cpf, as the published pattern demands slashes', async () => {
      await start({ literalPatterns: true });
      const t = await token(psp);
      const refused = await call('PUT', `${psp.url}/cob/${TXID}`, { token: t, json: chargeBody() });
      expect(refused.status).toBe(400);
      expect(psp.takeViolations()).toContainEqual(expect.stringMatching(/devedor\/cpf must match pattern/));
      expect((await call('PUT', `${psp.url}/cob/${TXID}`, { token: t, json: chargeBody({ devedor: { cnpj: '12345678000195', nome: 'Loja' } }) })).status).toBe(201);
    });

    it('answers 406, and records it, to an Accept that does not admit the answer (a problem to Accept: application/json)', async () => {
      const answer = await call('GET', `${psp.url}/cob/${TXID}`, { token: bearer, headers: { accept: 'application/json' } });
      expect(answer.status).toBe(406);
      expect(psp.takeViolations()).toEqual([expect.stringContaining("does not admit the answer's application/problem+json")]);
      const admitted = await call('GET', `${psp.url}/cob/${TXID}`, { token: bearer, headers: { accept: 'application/json, application/problem+json' } });
      expect(admitted.status).toBe(404);
    });

    it('contentEncoding: compresses when the request admits it (or says nothing), not otherwise', async () => {
      await start({ contentEncoding: 'gzip' });
      const t = await token(psp);
      await call('PUT', `${psp.url}/cob/${TXID}`, { token: t, json: chargeBody() });
      expect((await call('GET', `${psp.url}/cob/${TXID}`, { token: t })).headers['content-encoding']).toBe('gzip');
      expect((await call('GET', `${psp.url}/cob/${TXID}`, { token: t, headers: { 'accept-encoding': 'gzip;q=0, br' } })).headers['content-encoding']).toBeUndefined();
    });

    it('createStatus 200, an empty base path and another token path', async () => {
      await start({ basePath: '', tokenPath: '/auth/realms/pix/token', createStatus: 200 });
      expect(psp.tokenUrl).toMatch(/\/auth\/realms\/pix\/token$/);
      const created = await call('PUT', `${psp.url}/cob/${TXID}`, { token: await token(psp), json: chargeBody() });
      expect([created.status, created.body.txid]).toEqual([200, TXID]);
    });
  });
});

describe('the Pix API document and its errata', () => {
  const txid = 'a'.repeat(30);
  const charge = { calendario: { expiracao: 3600 }, devedor: { cpf: CPF, nome: 'Fulano' }, valor: { original: '10.50' }, chave: 'k' };
  const json = { 'content-type': 'application/json' };
  const paginacao = { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 };
  const parametros = { inicio: '2026-01-01T00:00:00Z', fim: '2026-01-02T00:00:00Z', paginacao };
  const cob = {
    calendario: { criacao: '2026-01-01T10:00:00Z', expiracao: 3600 },
    txid,
    revisao: 0,
    loc: { id: 1, location: 'pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25', tipoCob: 'cob', criacao: '2026-01-01T10:00:00Z', txid },
    location: 'pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25',
    status: 'ATIVA',
    valor: { original: '10.50' },
    chave: 'k',
  };
  const without = (name: string) => new PixApiValidator(patchedDocument([name]));

  it('still finds something to fix for every erratum in the official document', () => {
    const document = officialDocument();
    expect(Object.fromEntries(ERRATA.map((e) => [e.name, e.fix(document) > 0]))).toEqual(Object.fromEntries(ERRATA.map((e) => [e.name, true])));
  });

  it('unwrapRegexLiteralPatterns: as published, no CPF can match "/^\\d{11}$/"', () => {
    const request = ['PUT', `/cob/${txid}`, {}, json, charge] as const;
    expect(new PixApiValidator(officialDocument()).validateRequest(...request)).toContainEqual(expect.stringContaining('body/devedor/cpf must match pattern "/^\\d{11}$/"'));
    expect(without('unwrapRegexLiteralPatterns').validateRequest(...request)).not.toEqual([]);
    expect(pixApiValidator().validateRequest(...request)).toEqual([]);
  });

  it('anchorPatterns: unanchored, "1.000" passes as money and 40 characters as a txid', () => {
    const loose = without('anchorPatterns');
    expect(loose.validateRequest('PUT', `/cob/${'a'.repeat(40)}`, {}, json, { ...charge, valor: { original: '1.000' } })).toEqual([]);
    expect(pixApiValidator().validateRequest('PUT', `/cob/${'a'.repeat(40)}`, {}, json, { ...charge, valor: { original: '1.000' } })).toEqual([
      expect.stringContaining('path parameter "txid" must match pattern'),
      expect.stringContaining('body/valor/original must match pattern'),
    ]);
  });

  it('pixConsultadosRequiresPix: as published, a correct GET /pix answer lacks "cobs"', () => {
    const answer = { parametros, pix: [] };
    expect(without('pixConsultadosRequiresPix').validateResponse('GET', '/pix', 200, answer, 'application/json')).toEqual([
      expect.stringContaining("must have required property 'cobs'"),
    ]);
    expect(pixApiValidator().validateResponse('GET', '/pix', 200, answer, 'application/json')).toEqual([]);
    expect(pixApiValidator().validateResponse('GET', '/pix', 200, { parametros }, 'application/json')).toEqual([expect.stringContaining("must have required property 'pix'")]);
  });

  it('listedChargesDoNotRequireIdCob: as published, no listed charge has the undefined "idCob"', () => {
    const answer = { parametros, cobs: [cob] };
    expect(without('listedChargesDoNotRequireIdCob').validateResponse('GET', '/cob', 200, answer, 'application/json')).toEqual([
      expect.stringContaining("must have required property 'idCob'"),
    ]);
    expect(pixApiValidator().validateResponse('GET', '/cob', 200, answer, 'application/json')).toEqual([]);
  });

  it('locationIsNotAUri: as published, the scheme-less location of every example is refused', () => {
    const violations = without('locationIsNotAUri').validateResponse('PUT', `/cob/${txid}`, 201, cob, 'application/json');
    expect(violations).toHaveLength(2);
    expect(violations).toEqual(
      expect.arrayContaining([expect.stringContaining('body/location must match format "uri"'), expect.stringContaining('body/loc/location must match format "uri"')]),
    );
    expect(pixApiValidator().validateResponse('PUT', `/cob/${txid}`, 201, cob, 'application/json')).toEqual([]);
  });

  const cobv = {
    calendario: { dataDeVencimento: '2026-12-31', validadeAposVencimento: 30 },
    devedor: { cpf: CPF, nome: 'Fulano', logradouro: 'Rua 1', cidade: 'Recife', uf: 'PE', cep: '50030230' },
    valor: { original: '100.00' },
    chave: 'k',
  };

  it('fixedDateDiscountsRequireTheirDates: as published, no early-payment discount (modalidades 3 to 6) matches exactly one branch', () => {
    const early = { ...cobv, valor: { original: '100.00', desconto: { modalidade: 3, valorPerc: '0.50' } } };
    expect(without('fixedDateDiscountsRequireTheirDates').validateRequest('PUT', `/cobv/${txid}`, {}, json, early)).toEqual([
      expect.stringContaining('body/valor/desconto must match exactly one schema in oneOf'),
    ]);
    expect(pixApiValidator().validateRequest('PUT', `/cobv/${txid}`, {}, json, early)).toEqual([]);
    const fixed = { ...cobv, valor: { original: '100.00', desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-12-20', valorPerc: '5.00' }] } } };
    expect(pixApiValidator().validateRequest('PUT', `/cobv/${txid}`, {}, json, fixed)).toEqual([]);
  });

  it('receiverAddressInsideRecebedor: as published, a due-date charge answered as the example is lacks its own logradouro, cidade, uf and cep', () => {
    const answer = {
      ...cobv,
      calendario: { ...cobv.calendario, criacao: '2026-01-01T10:00:00Z' },
      txid,
      revisao: 0,
      location: 'pix.example.com/qr/v2/cobv/9d36b84fc70b478fb95c12729b90ca25',
      status: 'ATIVA',
      recebedor: { cnpj: '12345678000195', nome: 'Loja', logradouro: 'Rua 2', cidade: 'São Paulo', uf: 'SP', cep: '01001000' },
    };
    expect(without('receiverAddressInsideRecebedor').validateResponse('GET', `/cobv/${txid}`, 200, answer, 'application/json')).toHaveLength(4);
    expect(pixApiValidator().validateResponse('GET', `/cobv/${txid}`, 200, answer, 'application/json')).toEqual([]);
    const { recebedor: _recebedor, ...withoutReceiver } = answer;
    expect(pixApiValidator().validateResponse('GET', `/cobv/${txid}`, 200, withoutReceiver, 'application/json')).not.toEqual([]);
  });

  it('revisedTermsMayBeNull: as published, no change can remove a fine (null); a create still may not send one', () => {
    const removal = { valor: { original: '120.00', multa: null, juros: null, desconto: null, abatimento: null } };
    expect(without('revisedTermsMayBeNull').validateRequest('PATCH', `/cobv/${txid}`, {}, json, removal)).toContainEqual(
      expect.stringContaining('body/valor/multa must be object'),
    );
    expect(pixApiValidator().validateRequest('PATCH', `/cobv/${txid}`, {}, json, removal)).toEqual([]);
    expect(pixApiValidator().validateRequest('PUT', `/cobv/${txid}`, {}, json, { ...cobv, valor: { original: '100.00', multa: null } })).not.toEqual([]);
  });

  it('recReadsMayBeRefused: as published, GET /rec/{idRec} may not answer its own RecConsultaInvalida (400)', () => {
    const refusal = { type: 'https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida', title: 'Consulta inválida.', status: 400 };
    const path = '/rec/RN1234567820241130lkwdefghijk';
    expect(without('recReadsMayBeRefused').validateResponse('GET', path, 400, refusal, 'application/problem+json')).toEqual([expect.stringContaining('status 400 is not among')]);
    expect(pixApiValidator().validateResponse('GET', path, 400, refusal, 'application/problem+json')).toEqual([]);
  });

  it('validates the Pix callback against the document, and refuses statuses and operations it does not list', () => {
    const validator = pixApiValidator();
    expect(validator.validateCallback({ pix: [{ endToEndId: 'E60701190202601011200abcdefghijk', txid, valor: '1.00', horario: '2026-01-01T12:00:00Z' }] })).toEqual([]);
    expect(validator.validateCallback({ pix: [{ endToEndId: 'E1', valor: '1.00', horario: '2026-01-01T12:00:00Z' }] })).not.toEqual([]);
    expect(validator.validateResponse('GET', `/cob/${txid}`, 418, {}, 'application/json')).toEqual([expect.stringContaining('status 418 is not among')]);
    expect(validator.validateRequest('DELETE', `/cob/${txid}`, {}, {}, undefined)).toEqual([expect.stringContaining('no such operation')]);
  });
});

import { createDynamicPix, hasError } from 'pix-utils';
import { testPki } from '../../../testing/certificates';
import { type Account, type CreateChargeRequest, type RefundRequest, UpstreamError, WebhookParseError } from '../../provider-adapter';
import type { OutboundAnswer } from '../../transport/transport';
import { BB } from '../banks/bb';
import { EFI } from '../banks/efi';
import type { PixApiCredentials } from '../credentials';
import { PIX_API } from '../profile';
import { readPix } from '../wire';
import { apiRequest, endpointsOf } from './api-call';
import { callbackEntries, confirmedEvents, MAX_CALLBACK_ENTRIES, pixConfirms } from './callback';
import { cancelChargeCall, isConcluded, parseCancelledCharge } from './cancel';
import { createChargeCall, isSameCharge, parseCreatedCharge, withoutRefusedCpf } from './charge';
import { listRecentChargesCall, parseCob, parseDevolucao, parsePix, readCobCall, readDevolucaoCall, readPixCall } from './read';
import { parseRefund, refundCall, toRefund } from './refund';
import { isTokenRefusal, parseToken, refusesScopes, tokenRequest } from './token';
import { parseWebhookRegistration, registerWebhookCall } from './webhook';

/* Every flow as a pure pair, request built and answer parsed, without a socket. */

const pki = testPki();
const brCode = (() => {
  const pix = createDynamicPix({ merchantName: 'LOJA TESTE', merchantCity: 'SAO PAULO', url: 'pix.example.com/qr/v2/abc123' });
  if (hasError(pix)) throw new Error(pix.message);
  return pix.toBRCode();
})();
const TXID = 'abcdefghijklmnopqrstuvwxyz01234';
const E2E = 'E12345678202601151200abcdefghijk';
const KEY = 'recebedor@example.com';

const chargeRequest = (_notificationUrl: string, overrides: Partial<CreateChargeRequest> = {}): CreateChargeRequest => ({
  paymentId: 'pay_1',
  txid: TXID,
  amountCents: 1050,
  currency: 'BRL',
  description: 'Pedido 1234',
  externalId: 'order-1',
  payer: { document: '12345678909', name: 'Ana Souza' },
  expiresInSeconds: 3600,
  notificationUrl: 'https://example.com',
  ...overrides,
});
const answer = (status: number, body?: unknown, headers: OutboundAnswer['headers'] = {}): OutboundAnswer => ({
  status,
  headers,
  text: body === undefined ? '' : JSON.stringify(body),
});
const cobBody = (overrides: Record<string, unknown> = {}) => ({
  calendario: { criacao: '2026-01-15T12:00:00Z', expiracao: 3600 },
  txid: TXID,
  revisao: 0,
  status: 'ATIVA',
  valor: { original: '10.50' },
  chave: KEY,
  pixCopiaECola: brCode,
  ...overrides,
});
const pixBody = (overrides: Record<string, unknown> = {}) => ({ endToEndId: E2E, txid: TXID, valor: '10.50', horario: '2026-01-15T12:05:00Z', ...overrides });
const credentials: PixApiCredentials = {
  clientId: 'client id',
  clientSecret: 's3cr:et',
  tls: { certificatePem: pki.client.cert, privateKeyPem: pki.client.key, caPem: null },
  extras: { app_key: 'app-1' },
  certificate: { subject: 'CN=test', expiresAt: '2030-01-01T00:00:00Z' },
};
const account: Account<PixApiCredentials> = {
  id: 'pa_1',
  provider: 'bb',
  environment: 'sandbox',
  baseUrl: null,
  tokenUrl: null,
  pixKey: KEY,
  credentials,
};

function refusal(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('building an API call', () => {
  it("puts the profile's base, query and headers, the token and the JSON body together", () => {
    const built = apiRequest(BB, account, createChargeCall(chargeRequest('https://example.com', { txid: TXID, amountCents: 1050 }), KEY), 'tok');
    expect(built.method).toBe('PUT');
    expect(built.url.toString()).toBe(`https://api-pix.hm.bb.com.br/pix/v2/cob/${TXID}?gw-dev-app-key=app-1`);
    expect(built.headers).toMatchObject({ authorization: 'Bearer tok', 'content-type': 'application/json' });
    expect(JSON.parse(built.body as string)).toMatchObject({ valor: { original: '10.50' }, chave: KEY, calendario: { expiracao: expect.any(Number) } });
    expect(built.label).toBe('Banco do Brasil: create charge');
  });

  it("takes an account's own base URL as given, and refuses one that is not https", () => {
    const own = { ...account, baseUrl: 'https://psp.example/api/', tokenUrl: 'https://psp.example/token' };
    expect(apiRequest(PIX_API, own, readCobCall(TXID), 't').url.toString()).toBe(`https://psp.example/api/cob/${TXID}`);
    expect(refusal(() => endpointsOf(PIX_API, { ...own, baseUrl: 'http://psp.example' }))).toMatchObject({ field: 'base_url', message: expect.stringContaining('https') });
    expect(refusal(() => endpointsOf(PIX_API, account))).toMatchObject({ field: 'base_url' });
  });
});

describe('charge', () => {
  const request = chargeRequest('https://example.com', { txid: TXID, amountCents: 1050 });

  it('refuses a txid the standard does not allow before any request', () => {
    expect(() => createChargeCall({ ...request, txid: 'short' }, KEY)).toThrow(TypeError);
  });

  it('parses 201 and 200 into the charge; anything else is an UpstreamError with the status', () => {
    expect(parseCreatedCharge(PIX_API, answer(201, cobBody()))).toMatchObject({ txid: TXID, amountCents: 1050, copyPaste: brCode });
    expect(parseCreatedCharge(PIX_API, answer(200, cobBody()))).toMatchObject({ txid: TXID });
    expect(parseCreatedCharge(PIX_API, answer(503))).toMatchObject({ kind: 'http', upstreamStatus: 503 });
    expect(parseCreatedCharge(PIX_API, answer(201, { hello: 1 }))).toBeInstanceOf(UpstreamError);
  });

  it('drops devedor only when a 400 names the CPF', () => {
    const call = createChargeCall(request, KEY);
    const refusal = answer(400, {
      type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
      title: 'x',
      violacoes: [{ propriedade: 'cob.devedor.cpf', razao: 'inválido' }],
    });
    expect(withoutRefusedCpf(call, refusal)?.body).not.toHaveProperty('devedor');
    expect(withoutRefusedCpf(call, answer(400, { type: 'x/Other', title: 'valor' }))).toBeNull();
    expect(withoutRefusedCpf(call, answer(201, cobBody()))).toBeNull();
  });

  it('takes the charge a refused create holds only when it is the same amount at the same key', () => {
    const held = parseCreatedCharge(PIX_API, answer(200, cobBody()));
    expect(isSameCharge(held as never, request, KEY)).toBe(true);
    expect(isSameCharge(held as never, { ...request, amountCents: 999 }, KEY)).toBe(false);
    expect(isSameCharge(null, request, KEY)).toBe(false);
  });
});

describe('reads', () => {
  it('builds GET /cob, /pix and /devolucao with encoded ids, and the check’s one-minute list without milliseconds', () => {
    expect(readCobCall(TXID)).toEqual({ operation: 'read charge', method: 'GET', path: `/cob/${TXID}` });
    expect(readPixCall(E2E).path).toBe(`/pix/${E2E}`);
    expect(readDevolucaoCall(E2E, 'D 1').path).toBe(`/pix/${E2E}/devolucao/D%201`);
    expect(listRecentChargesCall(new Date('2026-01-15T12:00:30.123Z')).query).toEqual({ inicio: '2026-01-15T11:59:30Z', fim: '2026-01-15T12:00:30Z' });
  });

  it('answers null for a 404, the thing for a 200, an UpstreamError otherwise', () => {
    expect(parseCob(PIX_API, answer(404))).toBeNull();
    expect(parsePix(PIX_API, answer(404))).toBeNull();
    expect(parseDevolucao(PIX_API, answer(404))).toBeNull();
    expect(parsePix(PIX_API, answer(200, pixBody()))).toMatchObject({ endToEndId: E2E, amountCents: 1050 });
    expect(parseDevolucao(PIX_API, answer(200, { id: 'D1', valor: '1.00', status: 'DEVOLVIDO' }))).toMatchObject({ id: 'D1', amountCents: 100 });
    expect(parseCob(PIX_API, answer(500))).toMatchObject({ kind: 'http', upstreamStatus: 500 });
    expect(parsePix(PIX_API, answer(200, 'not a pix'))).toMatchObject({ kind: 'malformed' });
  });
});

describe('cancel', () => {
  it('patches the status to REMOVIDA_PELO_USUARIO_RECEBEDOR and parses the 200', () => {
    expect(cancelChargeCall(TXID)).toMatchObject({ method: 'PATCH', body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    expect(parseCancelledCharge(PIX_API, answer(200, cobBody({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })))).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    expect(parseCancelledCharge(PIX_API, answer(400, { type: 'x/CobOperacaoInvalida', title: 'paga' }))).toMatchObject({ upstreamStatus: 400 });
    // Banco do Brasil answers its PATCH with 201.
    expect(parseCancelledCharge(BB, answer(201, cobBody({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })))).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    expect(parseCancelledCharge(PIX_API, answer(204))).toMatchObject({ kind: 'malformed' });
  });

  it('answers with the charge as held when a refused cancel finds it no longer ATIVA', () => {
    const held = (status: string) => parseCob(PIX_API, answer(200, cobBody({ status }))) as never;
    expect(isConcluded(held('CONCLUIDA'))).toBe(true);
    expect(isConcluded(held('ATIVA'))).toBe(false);
    expect(isConcluded(null)).toBe(false);
  });
});

describe('refund', () => {
  const request: RefundRequest = { refundId: 'ref_1', amountCents: 500, reason: ' devolução ', endToEndId: E2E, charge: { txid: TXID, providerPaymentId: TXID } };

  it('puts the devolução by the Pix it returns, with the amount and the clipped reason', () => {
    expect(refundCall(request, E2E, 'ref1')).toEqual({ operation: 'refund', method: 'PUT', path: `/pix/${E2E}/devolucao/ref1`, body: { valor: '5.00', descricao: 'devolução' } });
    expect(() => refundCall({ ...request, amountCents: 0 }, E2E, 'ref1')).toThrow(TypeError);
  });

  it('parses 201 and 200 into the refund in the gateway’s terms', () => {
    const made = parseRefund(PIX_API, answer(201, { id: 'ref1', rtrId: 'D123', valor: '5.00', status: 'NAO_REALIZADO', motivo: 'sem saldo' }));
    expect(toRefund('ref_1', E2E, made as never)).toEqual({
      refundId: 'ref_1',
      providerRefundId: 'ref1',
      status: 'failed',
      amountCents: 500,
      failureReason: 'sem saldo',
      endToEndId: E2E,
      rtrId: 'D123',
    });
    expect(parseRefund(PIX_API, answer(409))).toMatchObject({ upstreamStatus: 409 });
  });

  it("carries the PSP's code and words when it refuses: the standard's problem, or Efí's {nome, mensagem}", () => {
    const standard = parseRefund(
      PIX_API,
      answer(400, { type: 'https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida', title: 'Devolução inválida', status: 400, detail: 'excede o saldo' }),
    );
    expect(standard).toMatchObject({
      kind: 'http',
      upstreamStatus: 400,
      providerCode: 'PixDevolucaoInvalida',
      providerMessage: 'Devolução inválida: excede o saldo',
      ambiguous: false,
    });
    const efi = parseRefund(EFI, answer(400, { nome: 'valor_devolucao_atingido', mensagem: 'Valor máximo de devolução atingido' }));
    expect(efi).toMatchObject({
      kind: 'http',
      upstreamStatus: 400,
      providerCode: 'valor_devolucao_atingido',
      providerMessage: 'Valor máximo de devolução atingido',
      ambiguous: false,
    });
    expect(parseRefund(EFI, answer(503, { nome: 'erro_aplicacao' }))).toMatchObject({ providerCode: 'erro_aplicacao', providerMessage: undefined, ambiguous: true });
  });
});

describe('webhook registration', () => {
  it("puts the account's URL at its Pix key with the profile's headers; 200, 201 and 204 are success", () => {
    const efi = { ...account, provider: 'efi', credentials: { ...credentials, extras: { skip_mtls_checking: true } } };
    expect(registerWebhookCall(EFI, efi, 'https://gw.example/webhooks/efi/pa_1')).toEqual({
      operation: 'register webhook',
      method: 'PUT',
      path: `/webhook/${encodeURIComponent(KEY)}`,
      body: { webhookUrl: 'https://gw.example/webhooks/efi/pa_1' },
      headers: { 'x-skip-mtls-checking': 'true' },
    });
    for (const status of [200, 201, 204]) expect(parseWebhookRegistration(PIX_API, answer(status))).toBeUndefined();
    expect(parseWebhookRegistration(PIX_API, answer(500))).toMatchObject({ upstreamStatus: 500 });
  });
});

describe('token', () => {
  const url = 'https://psp.example/oauth/token';

  it("writes RFC 6749's request: Basic client auth, a form, the standard's scopes", () => {
    const built = tokenRequest(PIX_API, credentials, url, ['cob.read', 'pix.read']);
    expect(built.headers).toMatchObject({ authorization: `Basic ${Buffer.from('client%20id:s3cr%3Aet').toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' });
    expect(Object.fromEntries(new URLSearchParams(built.body as string))).toEqual({ grant_type: 'client_credentials', scope: 'cob.read pix.read' });
  });

  it('asks again without scopes only after invalid_scope', () => {
    expect(refusesScopes(PIX_API, answer(400, { error: 'invalid_scope' }))).toBe(true);
    expect(refusesScopes(PIX_API, answer(400, { error: 'invalid_client' }))).toBe(false);
    expect(refusesScopes(EFI, answer(400, { error: 'invalid_scope' }))).toBe(false); // Efí asks for none
  });

  it('parses the grant; a missing expires_in is 300 s; a refusal is remembered, a 429 or a 5xx is not', () => {
    const issuedAt = new Date('2026-01-15T12:00:00Z');
    expect(parseToken(PIX_API, answer(200, { access_token: 'a', expires_in: '600' }), issuedAt)).toEqual({ value: 'a', issuedAt, expiresAt: new Date('2026-01-15T12:10:00Z') });
    expect(parseToken(PIX_API, answer(200, { access_token: 'a' }), issuedAt)).toMatchObject({ expiresAt: new Date('2026-01-15T12:05:00Z') });
    expect(parseToken(PIX_API, answer(200, { expires_in: 60 }), issuedAt)).toMatchObject({ kind: 'malformed' });
    const refused = parseToken(PIX_API, answer(401, { error: 'invalid_client' }), issuedAt);
    expect(refused).toMatchObject({ kind: 'http', upstreamStatus: 401, providerCode: 'invalid_client' });
    expect(isTokenRefusal(refused)).toBe(true);
    expect(isTokenRefusal(parseToken(PIX_API, answer(429), issuedAt))).toBe(false);
    expect(isTokenRefusal(parseToken(PIX_API, answer(503), issuedAt))).toBe(false);
  });
});

describe('callback', () => {
  const body = (value: unknown) => Buffer.from(JSON.stringify(value));

  it('reads {pix:[…]} and the bare list, one entry per endToEndId, the first winning', () => {
    const entries = callbackEntries(body({ pix: [pixBody(), pixBody({ valor: '99.00' }), pixBody({ endToEndId: E2E.replace('E', 'F'), devolucoes: [{ id: 'D1' }] })] }));
    expect(entries).toEqual([
      { endToEndId: E2E, txid: TXID, valor: '10.50', devolucaoIds: [] },
      { endToEndId: E2E.replace('E', 'F'), txid: TXID, valor: '10.50', devolucaoIds: ['D1'] },
    ]);
    expect(callbackEntries(body([pixBody()]))).toHaveLength(1);
    expect(callbackEntries(body({ evento: 'teste_webhook' }))).toEqual([]);
  });

  it('refuses what is not a Pix callback, and more than the most Pix one may name', () => {
    expect(() => callbackEntries(Buffer.from('nope'))).toThrow(WebhookParseError);
    expect(() => callbackEntries(body({ pix: [{ endToEndId: 'short' }] }))).toThrow(WebhookParseError);
    const many = Array.from({ length: MAX_CALLBACK_ENTRIES + 1 }, (_, i) => pixBody({ endToEndId: `E${String(i).padStart(31, '0')}` }));
    expect(() => callbackEntries(body({ pix: many }))).toThrow(WebhookParseError);
  });

  it("confirms an entry only when the PSP's Pix and its concluded charge agree, with the PSP's values", () => {
    const [entry] = callbackEntries(body({ pix: [pixBody()] }));
    const pix = readPix('t', 200, pixBody({ valor: '10.50' }));
    expect(pixConfirms(entry!, pix)).toBe(true);
    expect(pixConfirms(entry!, null)).toBe(false);
    expect(pixConfirms(entry!, readPix('t', 200, pixBody({ valor: '10.49' })))).toBe(false);
    expect(pixConfirms(entry!, readPix('t', 200, pixBody({ txid: 'other000000000000000000000000' })))).toBe(false);
    const cob = (status: string, pixList: unknown[] = [pixBody()]) => parseCob(PIX_API, answer(200, cobBody({ status, pix: pixList }))) as never;
    const confirmedPix = pix as typeof pix & { txid: string };
    expect(confirmedEvents(entry!, confirmedPix, cob('CONCLUIDA'))).toEqual([
      expect.objectContaining({ eventId: `pix:${E2E}`, type: 'payment.confirmed', paymentRef: TXID, amountCents: 1050 }),
    ]);
    expect(confirmedEvents(entry!, confirmedPix, cob('ATIVA'))).toBeNull();
    expect(confirmedEvents(entry!, confirmedPix, cob('CONCLUIDA', [pixBody({ endToEndId: E2E.replace('E', 'F') })]))).toBeNull();
  });

  describe('naming devoluções', () => {
    const RTR = 'D12345678202601151230abcdefghijk';
    const devolucao = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
      id,
      rtrId: RTR,
      valor: '3.00',
      horario: { solicitacao: '2026-01-15T12:30:00Z', ...(status === 'DEVOLVIDO' ? { liquidacao: '2026-01-15T12:30:05Z' } : {}) },
      status,
      ...extra,
    });
    const devolucoes = [
      devolucao('ref1', 'DEVOLVIDO'),
      devolucao('ref2', 'EM_PROCESSAMENTO', { valor: '1.00' }),
      devolucao('ref3', 'NAO_REALIZADO', { motivo: 'Conta do pagador encerrada' }),
      devolucao('MEDa1', 'DEVOLVIDO', { natureza: 'MED_OPERACIONAL', valor: '2.00' }),
      devolucao('MEDb2', 'DEVOLVIDO', { natureza: 'MED_FRAUDE', valor: '1.00', motivo: 'Fraude confirmada' }),
      devolucao('MEDc3', 'DEVOLVIDO', { natureza: 'MED_PIX_AUTOMATICO', valor: '0.50' }),
    ];
    const held = readPix('t', 200, pixBody({ devolucoes })) as ReturnType<typeof readPix> & { txid: string };
    const concluded = parseCob(PIX_API, answer(200, cobBody({ status: 'CONCLUIDA', pix: [pixBody({ devolucoes })] }))) as never;
    const cobWith = (status: string) => parseCob(PIX_API, answer(200, cobBody({ status }))) as never;
    const confirm = (named: unknown[]) => confirmedEvents(callbackEntries(body({ pix: [pixBody({ devolucoes: named })] }))[0]!, held, concluded);

    it("makes each devolução the PSP holds a refund event in the PSP's status, by the charge's txid, with no payment event", () => {
      const events = confirm(devolucoes.slice(0, 3).map((d) => ({ ...d, status: 'DEVOLVIDO', valor: '9.99' })));
      expect(events).toEqual([
        {
          eventId: `pix:${E2E}:refund:ref1:succeeded`,
          type: 'refund.succeeded',
          paymentRef: TXID,
          amountCents: 300,
          occurredAt: new Date('2026-01-15T12:30:05Z'),
          refund: { providerRefundId: 'ref1', status: 'succeeded', amountCents: 300, externalOrigin: 'psp', failureReason: null, gatewayRefundId: 'ref_1' },
        },
        {
          eventId: `pix:${E2E}:refund:ref2:pending`,
          type: 'refund.pending',
          paymentRef: TXID,
          amountCents: 100,
          occurredAt: new Date('2026-01-15T12:30:00Z'),
          refund: { providerRefundId: 'ref2', status: 'pending', amountCents: 100, externalOrigin: 'psp', failureReason: null, gatewayRefundId: 'ref_2' },
        },
        {
          eventId: `pix:${E2E}:refund:ref3:failed`,
          type: 'refund.failed',
          paymentRef: TXID,
          amountCents: 300,
          occurredAt: new Date('2026-01-15T12:30:00Z'),
          refund: { providerRefundId: 'ref3', status: 'failed', amountCents: 300, externalOrigin: 'psp', failureReason: 'Conta do pagador encerrada', gatewayRefundId: 'ref_3' },
        },
      ]);
    });

    it('tells the three MED natures apart from the receiver’s own returns', () => {
      const events = confirm(devolucoes.slice(3).map((d) => ({ id: d.id })));
      expect(events?.map((event) => [event.refund?.providerRefundId, event.type, event.refund?.externalOrigin, event.amountCents])).toEqual([
        ['MEDa1', 'refund.succeeded', 'med', 200],
        ['MEDb2', 'refund.succeeded', 'med', 100],
        ['MEDc3', 'refund.succeeded', 'med', 50],
      ]);
      // A motivo on a return that went through explains it; it is no failure's reason.
      expect(events?.[1]?.refund?.failureReason).toBeNull();
    });

    it('gives the same event id for the same report, once per devolução even when named twice', () => {
      const once = confirm([{ id: 'ref1' }]);
      expect(confirm([{ id: 'ref1' }, { id: 'ref1' }])).toEqual(once);
      expect(once?.[0]?.eventId).toBe(`pix:${E2E}:refund:ref1:succeeded`);
    });

    it('confirms nothing when one devolução named is not held by the PSP (a forgery), or has no id', () => {
      expect(confirm([{ id: 'ref1' }, { id: 'forged1' }])).toBeNull();
      expect(confirm([{ valor: '3.00' }])).toBeNull();
      expect(confirmedEvents(callbackEntries(body({ pix: [pixBody({ devolucoes: [{ id: 'ref1' }] })] }))[0]!, held, cobWith('ATIVA'))).toBeNull();
    });
  });
});

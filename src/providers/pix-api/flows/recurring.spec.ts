import { brCodeCrc } from '../../../domain/br-code';
import { type Account, UpstreamError, WebhookParseError } from '../../provider-adapter';
import type { CreateRecurrenceRequest, CreateRecurringChargeRequest } from '../../recurring';
import type { OutboundAnswer } from '../../transport/transport';
import { KeyedLimiter } from '../../support/limits';
import type { PixApiCredentials } from '../credentials';
import { PixApiRecurring } from '../pix-api.recurring';
import { PIX_API } from '../profile';
import type { PixApiProfile } from '../profile';
import { RECURRING_SCOPES, STANDARD_SCOPES } from '../profile';
import { chargeEventId, confirmedReports, readBackCall, recurrenceEventId, recurringCallbackEntries } from './recurring-callback';
import {
  assertRecurrenceRequest,
  cancelRecurrenceCall,
  compositeTxidOf,
  createLocationCall,
  createRecurrenceCall,
  isSameRecurrence,
  listRecurrencesCall,
  parseLocation,
  parseQrRead,
  parseReadRecurrence,
  parseRecurrence,
  qrJourneyOf,
  readRecurrenceCall,
  requestAuthorizationCall,
  toProviderRecurrence,
} from './recurrence';
import type { ApiCall } from './api-call';
import {
  cancelRecurringChargeCall,
  createRecurringChargeCall,
  holdsRetryFor,
  isSameRecurringCharge,
  parseReadRecurringCharge,
  parseRecurringCharge,
  retryRecurringChargeCall,
  toProviderRecurringCharge,
} from './recurring-charge';
import { readCobR, readRec } from '../wire-recurrences';
import { scopesOf } from './token';

/* The Pix Automático flows as pure pairs, request built and answer parsed, without a socket. */

const ID_REC = 'RR1234567820240115abcdefghijk';
const TXID = 'abcdefghijklmnopqrstuvwxyz01234';
const FIRST_TXID = 'firstpaymentabcdefghijklmnop';
const DUE_TXID = 'duepaymentabcdefghijklmnopqr';
const E2E = 'E12345678202406201221abcdef12345';
const PROFILE: PixApiProfile = { ...PIX_API, recurring: { leadTime: { minDays: 2, maxDays: 10 }, source: 'https://example.com' } };
const withCrc = (text: string) => `${text}6304${brCodeCrc(`${text}6304`)}`;
const QR = withCrc('00020126180014br.gov.bcb.pix5204000053039865802BR5904LOJA6009SAO PAULO62070503***80400014br.gov.bcb.pix2518pix.example.com/rec');

const answer = (status: number, body?: unknown): OutboundAnswer => ({ status, headers: {}, text: body === undefined ? '' : JSON.stringify(body) });

const request = (overrides: Partial<CreateRecurrenceRequest> = {}): CreateRecurrenceRequest => ({
  recurrenceId: 'rec_1',
  contract: { id: 'CT-1', description: 'Plano mensal de academia com nome longo demais' },
  payer: { document: '123.456.789-09', name: 'Ana Souza' },
  frequency: 'monthly',
  amountCents: 4990,
  minimumAmountCents: null,
  startDate: '2026-12-01',
  endDate: '2027-12-01',
  retryPolicy: 'three_in_seven_days',
  journey: 'qr',
  firstPayment: null,
  payerAccount: null,
  expiresInSeconds: 3600,
  notificationUrl: 'https://example.com/webhooks/pix-api',
  ...overrides,
});

const rec = (overrides: Record<string, unknown> = {}) => ({
  idRec: ID_REC,
  vinculo: { contrato: 'CT-1', devedor: { cpf: '12345678909', nome: 'Ana Souza' } },
  calendario: { dataInicial: '2026-12-01', dataFinal: '2027-12-01', periodicidade: 'MENSAL' },
  valor: { valorRec: '49.90' },
  politicaRetentativa: 'PERMITE_3R_7D',
  recebedor: { cnpj: '12345678000195', nome: 'Loja' },
  status: 'CRIADA',
  atualizacao: [{ status: 'CRIADA', data: '2026-11-26T10:00:00Z' }],
  ...overrides,
});

const tentativa = (status: string, overrides: Record<string, unknown> = {}) => ({
  dataLiquidacao: '2026-12-05',
  tipo: 'AGND',
  endToEndId: E2E,
  status,
  atualizacao: [{ status, data: '2026-12-05T10:00:00Z' }],
  ...overrides,
});

const cobr = (status: string, tentativas: unknown[] = [], overrides: Record<string, unknown> = {}) => ({
  idRec: ID_REC,
  txid: TXID,
  calendario: { criacao: '2026-11-26', dataDeVencimento: '2026-12-05' },
  valor: { original: '49.90' },
  status,
  atualizacao: [{ status: 'CRIADA', data: '2026-11-26T10:00:00Z' }],
  tentativas,
  ...overrides,
});

const chargeRequest = (overrides: Partial<CreateRecurringChargeRequest> = {}): CreateRecurringChargeRequest => ({
  chargeId: 'rch_1',
  txid: TXID,
  providerRecurrenceId: ID_REC,
  dueDate: '2026-12-05',
  amountCents: 4990,
  description: 'Mensalidade',
  receiverAccount: { agencia: '0001', conta: '123456', tipoConta: 'CORRENTE' },
  notificationUrl: 'https://example.com',
  ...overrides,
});

describe('Pix Automático flows', () => {
  describe('creating a recurrence', () => {
    it('writes the contract, payer, calendar, amount and policy as RecSolicitada, with the location', () => {
      expect(createRecurrenceCall(request(), 108)).toEqual({
        operation: 'create recurrence',
        method: 'POST',
        path: '/rec',
        body: {
          vinculo: { contrato: 'CT-1', objeto: 'Plano mensal de academia com nome l', devedor: { cpf: '12345678909', nome: 'Ana Souza' } },
          calendario: { dataInicial: '2026-12-01', dataFinal: '2027-12-01', periodicidade: 'MENSAL' },
          valor: { valorRec: '49.90' },
          politicaRetentativa: 'PERMITE_3R_7D',
          loc: 108,
        },
      });
      expect(createLocationCall()).toEqual({ operation: 'create recurrence location', method: 'POST', path: '/locrec' });
    });

    it('maps each frequency and policy, a variable amount, a CNPJ payer, the composite QR’s txid', () => {
      const frequencies = (['weekly', 'monthly', 'quarterly', 'semiannual', 'annual'] as const).map(
        (frequency) => (createRecurrenceCall(request({ frequency }), null).body as { calendario: { periodicidade: string } }).calendario.periodicidade,
      );
      expect(frequencies).toEqual(['SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL']);
      const body = createRecurrenceCall(
        request({
          amountCents: null,
          minimumAmountCents: 1000,
          retryPolicy: 'none',
          endDate: null,
          contract: { id: 'CT-2', description: null },
          payer: { document: '12.345.678/0001-95', name: 'Empresa' },
          journey: 'qr_with_first_payment',
          firstPayment: { txid: FIRST_TXID },
        }),
        7,
      ).body as Record<string, unknown>;
      expect(body).toEqual({
        vinculo: { contrato: 'CT-2', devedor: { cnpj: '12345678000195', nome: 'Empresa' } },
        calendario: { dataInicial: '2026-12-01', periodicidade: 'MENSAL' },
        valor: { valorMinimoRecebedor: '10.00' },
        politicaRetentativa: 'NAO_PERMITE',
        loc: 7,
        ativacao: { dadosJornada: { txid: FIRST_TXID } },
      });
    });

    it('refuses what the document cannot carry: both amounts or none, a long contract id, a bad document', () => {
      expect(() => createRecurrenceCall(request({ minimumAmountCents: 100 }), null)).toThrow(TypeError);
      expect(() => createRecurrenceCall(request({ amountCents: null }), null)).toThrow(TypeError);
      expect(() => createRecurrenceCall(request({ contract: { id: 'x'.repeat(36), description: null } }), null)).toThrow(TypeError);
      expect(() => createRecurrenceCall(request({ payer: { document: '123', name: 'A' } }), null)).toThrow(TypeError);
      expect(() => createRecurrenceCall(request({ journey: 'qr_with_first_payment' }), 1)).toThrow(TypeError);
      expect(() => assertRecurrenceRequest(request({ journey: 'request' }))).toThrow(TypeError);
      expect(() => assertRecurrenceRequest(request())).not.toThrow();
    });

    it('asks the payer through their bank with the account and document as destinatario', () => {
      const call = requestAuthorizationCall(
        request({ journey: 'request', payerAccount: { ispbParticipante: '60701190', agencia: '1234', conta: '998877' } }),
        ID_REC,
        new Date('2026-11-26T10:00:00Z'),
      );
      expect(call).toEqual({
        operation: 'request recurrence authorization',
        method: 'POST',
        path: '/solicrec',
        body: {
          idRec: ID_REC,
          calendario: { dataExpiracaoSolicitacao: '2026-11-26T11:00:00.000Z' },
          destinatario: { ispbParticipante: '60701190', agencia: '1234', conta: '998877', cpf: '12345678909' },
        },
      });
      expect(() => requestAuthorizationCall(request({ journey: 'request' }), ID_REC, new Date())).toThrow(TypeError);
    });

    it('finds a lost creation by the payer over a window, and recognises it by its contract and terms', () => {
      const call = listRecurrencesCall('12345678909', new Date('2026-11-19T10:00:00.123Z'), new Date('2026-11-26T10:00:00.456Z'), 1);
      expect(call.query).toEqual({
        inicio: '2026-11-19T10:00:00Z',
        fim: '2026-11-26T10:01:00Z',
        cpf: '12345678909',
        'paginacao.paginaAtual': '1',
        'paginacao.itensPorPagina': '1000',
      });
      const held = readRec('t', 200, rec({ loc: { id: 9, location: 'pix.example.com/rec/1', criacao: '2026-11-26T10:00:00Z' } }));
      expect(isSameRecurrence(held, request())).toBe(true);
      expect(isSameRecurrence(held, request({ journey: 'request' }))).toBe(false);
      expect(isSameRecurrence(readRec('t', 200, rec()), request())).toBe(false);
      expect(isSameRecurrence(readRec('t', 200, rec()), request({ journey: 'request' }))).toBe(true);
      expect(isSameRecurrence(held, request({ journey: 'qr_with_first_payment', firstPayment: { txid: FIRST_TXID } }))).toBe(false);
      expect(isSameRecurrence(held, request({ contract: { id: 'CT-9', description: null } }))).toBe(false);
      expect(isSameRecurrence(held, request({ amountCents: 5000 }))).toBe(false);
      expect(isSameRecurrence(readRec('t', 200, rec({ status: 'APROVADA', loc: { id: 9, location: 'l', criacao: '2026-11-26T10:00:00Z' } })), request())).toBe(false);
    });

    it('cancels as the receiver, and reads with the composite QR’s txid', () => {
      expect(cancelRecurrenceCall(ID_REC)).toEqual({ operation: 'cancel recurrence', method: 'PATCH', path: `/rec/${ID_REC}`, body: { status: 'CANCELADA' } });
      expect(readRecurrenceCall(ID_REC, FIRST_TXID).query).toEqual({ txid: FIRST_TXID });
      expect(readRecurrenceCall(ID_REC).query).toBeUndefined();
    });
  });

  describe('JORNADA_4 (qr_with_due_payment): the composite QR of a due-date charge and the recurrence', () => {
    const dueRequest = (overrides: Partial<CreateRecurrenceRequest> = {}) => request({ journey: 'qr_with_due_payment', firstPayment: { txid: DUE_TXID }, ...overrides });
    const LOC = { id: 9, location: 'pix.example.com/qr/v2/rec/9', criacao: '2026-11-26T10:00:00Z' };
    const COMPOSITE = withCrc(
      '00020101021226810014br.gov.bcb.pix2559pix.example.com/qr/v2/cobv/1e6c54d3ec9449b7a7fc53b6b0f998e75204000053039865802BR5904LOJA6009SAO PAULO62070503***80400014br.gov.bcb.pix2518pix.example.com/rec',
    );

    it('maps each journey to the jornada its QR is read as, and names the first payment for the composite QR only', () => {
      expect((['qr', 'qr_with_first_payment', 'qr_with_due_payment', 'request'] as const).map(qrJourneyOf)).toEqual(['JORNADA_2', 'JORNADA_3', 'JORNADA_4', null]);
      expect(compositeTxidOf(dueRequest())).toBe(DUE_TXID);
      expect(compositeTxidOf(request({ journey: 'qr_with_first_payment', firstPayment: { txid: FIRST_TXID } }))).toBe(FIRST_TXID);
      expect(compositeTxidOf(request())).toBeNull();
      expect(readRecurrenceCall(ID_REC, compositeTxidOf(dueRequest()))).toEqual({ operation: 'read recurrence', method: 'GET', path: `/rec/${ID_REC}`, query: { txid: DUE_TXID } });
    });

    it('creates the recurrence with its location and no dadosJornada (the document keeps that for JORNADA_3), and refuses one without its charge', () => {
      const body = createRecurrenceCall(dueRequest(), 7).body as Record<string, unknown>;
      expect(body).toMatchObject({ loc: 7, valor: { valorRec: '49.90' } });
      expect(body).not.toHaveProperty('ativacao');
      expect(() => createRecurrenceCall(dueRequest({ firstPayment: null }), 7)).toThrow(TypeError);
      expect(() => assertRecurrenceRequest(dueRequest({ firstPayment: { txid: 'short' } }))).toThrow(TypeError);
    });

    it('takes over a lost creation with a location and no charge named on it, not a JORNADA_3 one', () => {
      expect(isSameRecurrence(readRec('t', 200, rec({ loc: LOC })), dueRequest())).toBe(true);
      expect(isSameRecurrence(readRec('t', 200, rec({ loc: LOC, ativacao: { dadosJornada: { txid: FIRST_TXID } } })), dueRequest())).toBe(false);
      expect(isSameRecurrence(readRec('t', 200, rec()), dueRequest())).toBe(false);
    });

    it('refuses a QR the PSP says is another journey’s, and takes one whose journey it does not say', () => {
      const read = (dadosQR: Record<string, unknown>) => parseQrRead(PROFILE, answer(200, rec({ loc: LOC, dadosQR })), 'JORNADA_4');
      expect(read({ jornada: 'JORNADA_4', pixCopiaECola: COMPOSITE })).toMatchObject({ copyPaste: COMPOSITE });
      expect(read({ pixCopiaECola: COMPOSITE })).toMatchObject({ copyPaste: COMPOSITE });
      expect(read({ jornada: 'JORNADA_2', pixCopiaECola: QR })).toBeInstanceOf(UpstreamError);
      expect(parseQrRead(PROFILE, answer(200, rec({ dadosQR: { jornada: 'JORNADA_2', pixCopiaECola: QR } })), null)).toMatchObject({ copyPaste: QR });
      expect(parseQrRead(PROFILE, answer(404), 'JORNADA_4')).toBeNull();
    });

    it('asks the PSP for the location, the recurrence, then its composite QR with the due-date charge’s txid', async () => {
      const calls: ApiCall[] = [];
      const answers: Record<string, OutboundAnswer> = {
        'GET /rec': answer(200, { parametros: { paginacao: { quantidadeDePaginas: 1 } }, recs: [] }),
        'POST /locrec': answer(201, LOC),
        'POST /rec': answer(201, rec({ loc: LOC })),
        [`GET /rec/${ID_REC}`]: answer(200, rec({ loc: LOC, dadosQR: { jornada: 'JORNADA_4', pixCopiaECola: COMPOSITE } })),
      };
      const recurring = new PixApiRecurring({
        profile: PROFILE,
        clock: { now: () => new Date('2026-11-26T10:00:00Z') },
        send: (_account, call) => {
          calls.push(call);
          return Promise.resolve(answers[`${call.method} ${call.path}`] ?? answer(500));
        },
        readBacks: new KeyedLimiter(1),
        callbackTimeoutMs: 1000,
        callbackBudgetMs: 1000,
      });
      const created = await recurring.createRecurrence({} as Account<PixApiCredentials>, dueRequest());
      expect(created).toMatchObject({ providerRecurrenceId: ID_REC, status: 'pending_authorization', copyPaste: COMPOSITE });
      expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /rec', 'POST /locrec', 'POST /rec', `GET /rec/${ID_REC}`]);
      expect(calls[2]!.body).not.toHaveProperty('ativacao');
      expect(calls[3]!.query).toEqual({ txid: DUE_TXID });

      // The PSP answering the recurrence's own QR where the composite one was asked for is not an authorization code to hand out.
      answers[`GET /rec/${ID_REC}`] = answer(200, rec({ loc: LOC, dadosQR: { jornada: 'JORNADA_2', pixCopiaECola: QR } }));
      await expect(recurring.createRecurrence({} as Account<PixApiCredentials>, dueRequest())).rejects.toMatchObject({ kind: 'malformed' });
    });
  });

  describe('reading a recurrence', () => {
    it('maps each status, who cancelled, the QR and the last change', () => {
      const map = (overrides: Record<string, unknown>) => toProviderRecurrence(PROFILE, readRec('t', 200, rec(overrides)));
      expect(map({ status: 'CRIADA', dadosQR: { jornada: 'JORNADA_2', pixCopiaECola: QR } })).toEqual({
        providerRecurrenceId: ID_REC,
        status: 'pending_authorization',
        cancelledBy: null,
        copyPaste: QR,
        authorizationExpiresAt: null,
        updatedAt: new Date('2026-11-26T10:00:00Z'),
      });
      expect(map({ status: 'APROVADA' }).status).toBe('active');
      expect(map({ status: 'REJEITADA' }).status).toBe('rejected');
      expect(map({ status: 'EXPIRADA' }).status).toBe('expired');
      const cancelledBy = (solicitante: string) => map({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante, codigo: 'SLCR', descricao: 'x' } } }).cancelledBy;
      expect(['USUARIO_RECEBEDOR', 'USUARIO_PAGADOR', 'PSP_PAGADOR', 'PSP_RECEBEDOR'].map(cancelledBy)).toEqual(['merchant', 'payer', 'psp', 'psp']);
    });

    it('reads the document’s examples’ `nome` for a history entry’s status, and the request’s expiry', () => {
      const read = readRec(
        't',
        200,
        rec({ atualizacao: [{ nome: 'CRIADA', data: '2026-11-26T10:00:00Z' }], solicitacao: [{ calendario: { dataExpiracaoSolicitacao: '2026-11-27T10:00:00Z' } }] }),
      );
      expect(read.atualizacao).toEqual([{ status: 'CRIADA', at: new Date('2026-11-26T10:00:00Z') }]);
      expect(read.requestExpiresAt).toEqual(new Date('2026-11-27T10:00:00Z'));
    });

    it('refuses a BR Code with a wrong CRC, an answer without its contract, a status it cannot map', () => {
      expect(parseReadRecurrence(PROFILE, answer(200, rec({ dadosQR: { pixCopiaECola: `${QR.slice(0, -4)}0000` } })))).toBeInstanceOf(UpstreamError);
      expect(parseReadRecurrence(PROFILE, answer(200, rec({ vinculo: { devedor: { cpf: '1' } } })))).toBeInstanceOf(UpstreamError);
      expect(() => toProviderRecurrence(PROFILE, readRec('t', 200, rec({ status: 'SUSPENSA' })))).toThrow(UpstreamError);
      expect(parseReadRecurrence(PROFILE, answer(404))).toBeNull();
    });

    it('turns a refusal into the PSP’s status and code', () => {
      const refused = parseRecurrence(
        PROFILE,
        'create recurrence',
        answer(400, { type: 'https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida', title: 'Operação inválida.', status: 400 }),
      );
      expect(refused).toMatchObject({ upstreamStatus: 400, providerCode: 'RecOperacaoInvalida' });
      expect(parseLocation(PROFILE, answer(201, { id: 12, location: 'pix.example.com/rec/1', criacao: '2026-11-26T10:00:00Z' }))).toEqual({
        id: 12,
        location: 'pix.example.com/rec/1',
      });
    });
  });

  describe('recurring charges', () => {
    it('writes CobRSolicitada with the gateway’s txid and the receiver’s account', () => {
      expect(createRecurringChargeCall(chargeRequest())).toEqual({
        operation: 'create recurring charge',
        method: 'PUT',
        path: `/cobr/${TXID}`,
        body: {
          idRec: ID_REC,
          calendario: { dataDeVencimento: '2026-12-05' },
          valor: { original: '49.90' },
          ajusteDiaUtil: true,
          recebedor: { agencia: '0001', conta: '123456', tipoConta: 'CORRENTE' },
          infoAdicional: 'Mensalidade',
        },
      });
      expect(() => createRecurringChargeCall(chargeRequest({ txid: 'short' }))).toThrow(TypeError);
      expect(cancelRecurringChargeCall(TXID).body).toEqual({ status: 'CANCELADA' });
      expect(retryRecurringChargeCall(TXID, '2026-12-07').path).toBe(`/cobr/${TXID}/retentativa/2026-12-07`);
    });

    it('maps the charge: open while scheduled, failed and still open after a rejected attempt, closed otherwise', () => {
      const map = (status: string, tentativas: unknown[] = [], overrides: Record<string, unknown> = {}) =>
        toProviderRecurringCharge(PROFILE, readCobR('t', 200, cobr(status, tentativas, overrides)));
      expect(map('CRIADA')).toMatchObject({ status: 'scheduled', open: true, attempts: [] });
      expect(map('ATIVA', [tentativa('AGENDADA')])).toMatchObject({
        status: 'scheduled',
        open: true,
        attempts: [{ date: '2026-12-05', status: 'scheduled', endToEndId: E2E, reason: null }],
      });
      const rejected = tentativa('REJEITADA', { rejeicao: { codigo: 'AM02', descricao: 'Recusado' } });
      expect(map('ATIVA', [rejected])).toMatchObject({ status: 'failed', open: true, failureReason: 'AM02: Recusado', attempts: [{ status: 'failed', reason: 'AM02: Recusado' }] });
      expect(map('ATIVA', [tentativa('EXPIRADA')])).toMatchObject({ status: 'failed', open: true });
      expect(map('REJEITADA', [rejected], { encerramento: { rejeicao: { codigo: 'AC05', descricao: 'Conta encerrada' } } })).toMatchObject({
        status: 'failed',
        open: false,
        failureReason: 'AM02: Recusado',
      });
      expect(map('EXPIRADA')).toMatchObject({ status: 'expired', open: false });
      expect(map('CANCELADA', [tentativa('CANCELADA')])).toMatchObject({ status: 'cancelled', open: false, attempts: [{ status: 'cancelled' }] });
      const paid = map('CONCLUIDA', [
        rejected,
        tentativa('PAGA', {
          dataLiquidacao: '2026-12-07',
          atualizacao: [
            { status: 'SOLICITADA', data: '2026-12-06T10:00:00Z' },
            { status: 'PAGA', data: '2026-12-07T09:00:00Z' },
          ],
        }),
      ]);
      expect(paid).toMatchObject({
        status: 'paid',
        open: false,
        endToEndId: E2E,
        paidAt: new Date('2026-12-07T09:00:00Z'),
        failureReason: null,
        updatedAt: new Date('2026-12-07T09:00:00Z'),
      });
      const paidWithoutHistory = map('CONCLUIDA', [tentativa('PAGA', { atualizacao: [] })], { atualizacao: [{ status: 'CONCLUIDA', data: '2026-12-05T12:00:00Z' }] });
      expect(paidWithoutHistory.paidAt).toEqual(new Date('2026-12-05T12:00:00Z'));
    });

    it('finds a retried PUT’s charge and a retried attempt in what the PSP holds', () => {
      const held = readCobR('t', 200, cobr('ATIVA', [tentativa('REJEITADA'), tentativa('SOLICITADA', { dataLiquidacao: '2026-12-07' })]));
      expect(isSameRecurringCharge(held, chargeRequest())).toBe(true);
      expect(isSameRecurringCharge(held, chargeRequest({ amountCents: 1 }))).toBe(false);
      expect(isSameRecurringCharge(null, chargeRequest())).toBe(false);
      expect(holdsRetryFor(held, '2026-12-07')).toBe(true);
      expect(holdsRetryFor(held, '2026-12-08')).toBe(false);
    });

    it('turns a refused due date into the PSP’s 400 and code', () => {
      const refused = parseRecurringCharge(
        PROFILE,
        'create recurring charge',
        answer(400, {
          type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida',
          title: 'Operação inválida.',
          status: 400,
          violacoes: [{ razao: 'x', propriedade: 'cobr.calendario.dataDeVencimento' }],
        }),
      );
      expect(refused).toMatchObject({ upstreamStatus: 400, providerCode: 'CobROperacaoInvalida' });
      expect(parseReadRecurringCharge(PROFILE, answer(404))).toBeNull();
      expect(parseReadRecurringCharge(PROFILE, answer(200, { txid: TXID }))).toBeInstanceOf(UpstreamError);
    });
  });

  describe('callbacks', () => {
    const body = (value: unknown) => Buffer.from(JSON.stringify(value));

    it('reads the entries of /rec and /cobr, once each, and nothing else', () => {
      expect(recurringCallbackEntries('/rec', body({ recs: [{ idRec: ID_REC }, { idRec: ID_REC }] }))).toEqual([{ kind: 'recurrence', idRec: ID_REC }]);
      expect(recurringCallbackEntries('/cobr', body({ cobsr: [{ idRec: ID_REC, txid: TXID }] }))).toEqual([{ kind: 'charge', txid: TXID, idRec: ID_REC }]);
      expect(readBackCall({ kind: 'charge', txid: TXID })).toEqual({ operation: 'read recurring charge', method: 'GET', path: `/cobr/${TXID}` });
      expect(() => recurringCallbackEntries('/pix', body({ recs: [] }))).toThrow(WebhookParseError);
      expect(() => recurringCallbackEntries('/rec', body({ cobsr: [] }))).toThrow(WebhookParseError);
      expect(() => recurringCallbackEntries('/rec', Buffer.from('nope'))).toThrow(WebhookParseError);
      expect(() => recurringCallbackEntries('/rec', body({ recs: [{ idRec: 'short' }] }))).toThrow(WebhookParseError);
      expect(() => recurringCallbackEntries('/cobr', body({ cobsr: [{ txid: 'x' }] }))).toThrow(WebhookParseError);
    });

    it('confirms only what the PSP holds, as the PSP holds it', () => {
      const entry = { kind: 'charge' as const, txid: TXID, idRec: ID_REC };
      expect(confirmedReports(PROFILE, entry, null)).toBeNull();
      expect(confirmedReports(PROFILE, { ...entry, idRec: 'RN1234567820240115abcdefghijk' }, readCobR('t', 200, cobr('ATIVA')))).toBeNull();
      expect(confirmedReports(PROFILE, entry, readCobR('t', 200, cobr('CONCLUIDA', [tentativa('PAGA')])))).toMatchObject({ kind: 'charge', charge: { status: 'paid' } });
      expect(confirmedReports(PROFILE, { kind: 'recurrence', idRec: ID_REC }, readRec('t', 200, rec({ status: 'APROVADA' })))).toMatchObject({
        kind: 'recurrence',
        recurrence: { status: 'active' },
      });
    });

    it('gives the same event id for the same report and another for new reports', () => {
      const recId = (overrides: Record<string, unknown>) => recurrenceEventId(readRec('t', 200, rec(overrides)));
      expect(recId({})).toBe(recId({}));
      expect(
        recId({
          status: 'APROVADA',
          atualizacao: [
            { status: 'CRIADA', data: '2026-11-26T10:00:00Z' },
            { status: 'APROVADA', data: '2026-11-27T10:00:00Z' },
          ],
        }),
      ).not.toBe(recId({}));
      const chargeId = (status: string, tentativas: unknown[]) => chargeEventId(readCobR('t', 200, cobr(status, tentativas)));
      const scheduled = chargeId('ATIVA', [tentativa('AGENDADA')]);
      expect(chargeId('ATIVA', [tentativa('AGENDADA')])).toBe(scheduled);
      // An attempt rejected at the same instant the history last changed is still reports.
      expect(chargeId('ATIVA', [tentativa('REJEITADA', { atualizacao: [{ status: 'AGENDADA', data: '2026-12-05T10:00:00Z' }] })])).not.toBe(scheduled);
      expect(chargeId('ATIVA', [tentativa('REJEITADA'), tentativa('SOLICITADA')])).not.toBe(chargeId('ATIVA', [tentativa('REJEITADA')]));
    });
  });

  it('asks for the recurring scopes only for a profile that declares recurring and sends scopes', () => {
    // Due-date charges and batches bring scopes of their own (flows.spec.ts): left out here.
    const { recurring: _declared, dueCharges: _due, chargeBatches: _batches, ...standardOnly } = PIX_API;
    expect(scopesOf(standardOnly)).toEqual(STANDARD_SCOPES);
    expect(scopesOf({ ...standardOnly, recurring: PROFILE.recurring })).toEqual([...STANDARD_SCOPES, ...RECURRING_SCOPES]);
    expect(scopesOf({ ...PROFILE, token: { ...PROFILE.token, scopes: null } })).toBeNull();
  });
});

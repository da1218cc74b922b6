import { createDynamicPix, hasError } from 'pix-utils';
import type { DueTerms } from '../../../domain/due-charge';
import { type ChargeBatchRequest, type CreateChargeRequest, UpstreamError } from '../../provider-adapter';
import type { OutboundAnswer } from '../../transport/transport';
import { SICOOB } from '../banks/sicoob';
import { CHARGE_BATCH_SCOPES, DUE_CHARGE_SCOPES, PIX_API, RECURRING_SCOPES, STANDARD_SCOPES } from '../profile';
import { pixLoteId } from '../txid';
import { brasiliaDayEnd, readCobV, readPix, toPixApiCharge } from '../wire';
import { callbackEntries, confirmedEvents } from './callback';
import { isConcluded } from './cancel';
import { isSameCharge } from './charge';
import { createChargeBatchCall, parseChargeBatch, parseChargeBatchAccepted, readChargeBatchCall } from './charge-batch';
import { cancelDueChargeCall, createDueChargeCall, dueChargeBody, parseDueCharge, parseReadDueCharge, readDueChargeCall, updateDueChargeCall } from './due-charge';
import { scopesOf } from './token';

/* Due-date charges and their batches as pure pairs: each request built, each answer parsed. */

const brCode = (() => {
  const pix = createDynamicPix({ merchantName: 'LOJA TESTE', merchantCity: 'SAO PAULO', url: 'pix.example.com/qr/v2/cobv/abc123' });
  if (hasError(pix)) throw new Error(pix.message);
  return pix.toBRCode();
})();
const TXID = 'abcdefghijklmnopqrstuvwxyz01234';
const E2E = 'E12345678202603101200abcdefghijk';
const KEY = 'recebedor@example.com';

const terms = (overrides: Partial<DueTerms> = {}): DueTerms => ({
  date: '2026-03-10',
  daysAfterDue: 30,
  fine: null,
  interest: null,
  discount: null,
  abatement: null,
  ...overrides,
});
const request = (overrides: Partial<CreateChargeRequest> = {}): CreateChargeRequest => ({
  paymentId: 'pay_1',
  txid: TXID,
  amountCents: 100_000,
  currency: 'BRL',
  description: 'Mensalidade de março',
  externalId: 'invoice-3',
  payer: { document: '123.456.789-09', name: 'Ana Souza' },
  expiresInSeconds: 3600,
  notificationUrl: 'https://example.com',
  due: terms(),
  ...overrides,
});
const answer = (status: number, body?: unknown): OutboundAnswer => ({ status, headers: {}, text: body === undefined ? '' : JSON.stringify(body) });
const cobvBody = (overrides: Record<string, unknown> = {}) => ({
  calendario: { criacao: '2026-03-01T12:00:00Z', dataDeVencimento: '2026-03-10', validadeAposVencimento: 5 },
  txid: TXID,
  revisao: 0,
  loc: { id: 1, location: 'pix.example.com/qr/v2/cobv/abc123', tipoCob: 'cobv' },
  location: 'pix.example.com/qr/v2/cobv/abc123',
  status: 'ATIVA',
  devedor: { cpf: '12345678909', nome: 'Ana Souza' },
  recebedor: { cnpj: '12345678000195', nome: 'Escola', logradouro: 'Rua 1', cidade: 'Recife', uf: 'PE', cep: '50000000' },
  valor: { original: '1000.00' },
  chave: KEY,
  pixCopiaECola: brCode,
  ...overrides,
});
const valorOf = (due: Partial<DueTerms>) => (dueChargeBody(request({ due: terms(due) }), KEY).valor as Record<string, unknown>) ?? {};

describe('creating a due-date charge (PUT /cobv/{txid})', () => {
  it("writes the standard's CobVSolicitada: the due date, the days after it, the payer, the original value, the key and the text to the payer", () => {
    expect(createDueChargeCall(request({ due: terms({ daysAfterDue: 0 }) }), KEY)).toEqual({
      operation: 'create due charge',
      method: 'PUT',
      path: `/cobv/${TXID}`,
      body: {
        calendario: { dataDeVencimento: '2026-03-10', validadeAposVencimento: 0 },
        devedor: { cpf: '12345678909', nome: 'Ana Souza' },
        valor: { original: '1000.00' },
        chave: KEY,
        solicitacaoPagador: 'Mensalidade de março',
      },
    });
  });

  it("adds the payer's address when given (street and city clipped to 200, the state's letters, the postal code's digits), and a CNPJ payer", () => {
    const body = dueChargeBody(
      request({
        payer: { document: '12.345.678/0001-95', name: 'Loja da Ana' },
        payerAddress: { street: ` ${'Rua Longa '.repeat(30)}`, city: 'Recife', state: 'pe', zip: '50030-230' },
      }),
      KEY,
    );
    expect(body.devedor).toEqual({ cnpj: '12345678000195', nome: 'Loja da Ana', logradouro: expect.stringMatching(/^Rua Longa/), cidade: 'Recife', uf: 'PE', cep: '50030230' });
    expect((body.devedor as { logradouro: string }).logradouro.length).toBeLessThanOrEqual(200);
    expect(() => dueChargeBody(request({ payerAddress: { street: 'Rua 1', city: 'Recife', state: 'Pernambuco', zip: '50030230' } }), KEY)).toThrow(TypeError);
    expect(() => dueChargeBody(request({ payerAddress: { street: 'Rua 1', city: 'Recife', state: 'PE', zip: '5003' } }), KEY)).toThrow(TypeError);
  });

  it('writes a fine as modalidade 1 (a fixed amount) or 2 (a percent), values in hundredths as two decimals', () => {
    expect(valorOf({ fine: { type: 'fixed', value: 1050 } }).multa).toEqual({ modalidade: 1, valorPerc: '10.50' });
    expect(valorOf({ fine: { type: 'percent', value: 200 } }).multa).toEqual({ modalidade: 2, valorPerc: '2.00' });
  });

  it.each([
    ['amount_per_day', 'calendar', 1],
    ['percent_per_day', 'calendar', 2],
    ['percent_per_month', 'calendar', 3],
    ['percent_per_year', 'calendar', 4],
    ['amount_per_day', 'business', 5],
    ['percent_per_day', 'business', 6],
    ['percent_per_month', 'business', 7],
    ['percent_per_year', 'business', 8],
  ] as const)('writes interest %s counting %s days as modalidade %d', (type, days, modalidade) => {
    expect(valorOf({ interest: { type, days, value: 33 } }).juros).toEqual({ modalidade, valorPerc: '0.33' });
  });

  it('writes a discount until fixed dates as modalidade 1 (amounts) or 2 (percents) with descontoDataFixa, and no valorPerc of its own', () => {
    const until = [
      { date: '2026-03-01', value: 5000 },
      { date: '2026-03-05', value: 2500 },
      { date: '2026-03-10', value: 1000 },
    ];
    expect(valorOf({ discount: { type: 'fixed_until', until } }).desconto).toEqual({
      modalidade: 1,
      descontoDataFixa: [
        { data: '2026-03-01', valorPerc: '50.00' },
        { data: '2026-03-05', valorPerc: '25.00' },
        { data: '2026-03-10', valorPerc: '10.00' },
      ],
    });
    expect(valorOf({ discount: { type: 'percent_until', until: [{ date: '2026-03-08', value: 500 }] } }).desconto).toEqual({
      modalidade: 2,
      descontoDataFixa: [{ data: '2026-03-08', valorPerc: '5.00' }],
    });
  });

  it.each([
    ['amount_per_day_early', 'calendar', 3],
    ['amount_per_day_early', 'business', 4],
    ['percent_per_day_early', 'calendar', 5],
    ['percent_per_day_early', 'business', 6],
  ] as const)('writes a discount %s counting %s days as modalidade %d with its valorPerc and no dates', (type, days, modalidade) => {
    expect(valorOf({ discount: { type, days, value: 7 } }).desconto).toEqual({ modalidade, valorPerc: '0.07' });
  });

  it('writes an abatement as modalidade 1 (a fixed amount) or 2 (a percent), beside every other term', () => {
    expect(valorOf({ abatement: { type: 'fixed', value: 100 } }).abatimento).toEqual({ modalidade: 1, valorPerc: '1.00' });
    const all = valorOf({
      fine: { type: 'percent', value: 200 },
      interest: { type: 'percent_per_month', days: 'calendar', value: 100 },
      discount: { type: 'percent_until', until: [{ date: '2026-03-05', value: 300 }] },
      abatement: { type: 'percent', value: 1000 },
    });
    expect(Object.keys(all).sort()).toEqual(['abatimento', 'desconto', 'juros', 'multa', 'original']);
    expect(all.abatimento).toEqual({ modalidade: 2, valorPerc: '10.00' });
  });

  it('refuses, before any request, what the standard or the terms do not allow', () => {
    const refused = (overrides: Partial<CreateChargeRequest>) => () => createDueChargeCall(request(overrides), KEY);
    expect(refused({ txid: 'short' })).toThrow(TypeError);
    expect(refused({ due: null })).toThrow(TypeError);
    expect(refused({ amountCents: 0 })).toThrow(TypeError);
    expect(refused({ due: terms({ date: '2026-02-30' }) })).toThrow(TypeError);
    expect(refused({ due: terms({ daysAfterDue: 3651 }) })).toThrow(TypeError);
    expect(refused({ due: terms({ daysAfterDue: -1 }) })).toThrow(TypeError);
    expect(refused({ due: terms({ fine: { type: 'fixed', value: -1 } }) })).toThrow(TypeError);
    expect(refused({ due: terms({ fine: { type: 'fixed', value: 10.5 } }) })).toThrow(TypeError);
    expect(refused({ due: terms({ discount: { type: 'fixed_until', until: [{ date: '2026-03-11', value: 100 }] } }) })).toThrow(TypeError);
    expect(refused({ due: terms({ discount: { type: 'fixed_until', until: [] } }) })).toThrow(TypeError);
    const four = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04'].map((date) => ({ date, value: 100 }));
    expect(refused({ due: terms({ discount: { type: 'fixed_until', until: four } }) })).toThrow(TypeError);
  });
});

describe('changing, removing and reading a due-date charge', () => {
  it('PATCH /cobv/{txid} with the new calendario and the whole valor; a term the new ones lack is null, its removal', () => {
    expect(updateDueChargeCall(TXID, { amountCents: 120_000, due: terms({ date: '2026-04-10', daysAfterDue: 10, fine: { type: 'percent', value: 200 } }) })).toEqual({
      operation: 'update due charge',
      method: 'PATCH',
      path: `/cobv/${TXID}`,
      body: {
        calendario: { dataDeVencimento: '2026-04-10', validadeAposVencimento: 10 },
        valor: { original: '1200.00', multa: { modalidade: 2, valorPerc: '2.00' }, juros: null, desconto: null, abatimento: null },
      },
    });
    expect(() => updateDueChargeCall(TXID, { amountCents: -1, due: terms() })).toThrow(TypeError);
  });

  it('PATCH /cobv/{txid} to REMOVIDA_PELO_USUARIO_RECEBEDOR to cancel, GET /cobv/{txid} to read', () => {
    expect(cancelDueChargeCall(TXID)).toEqual({ operation: 'cancel due charge', method: 'PATCH', path: `/cobv/${TXID}`, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    expect(readDueChargeCall(TXID)).toEqual({ operation: 'read due charge', method: 'GET', path: `/cobv/${TXID}` });
  });

  it('reads a CobVGerada at the edge: its dates, its original value, its BR Code (here as Sicoob names it)', () => {
    const read = parseDueCharge(SICOOB, 'create due charge', answer(201, cobvBody({ pixCopiaECola: undefined, brcode: brCode })));
    expect(read).toMatchObject({ txid: TXID, status: 'ATIVA', dueDate: '2026-03-10', daysAfterDue: 5, amountCents: 100_000, chave: KEY, copyPaste: brCode, pix: [] });
    expect(parseDueCharge(PIX_API, 'update due charge', answer(200, cobvBody()))).toMatchObject({ txid: TXID });
    // validadeAposVencimento absent is the standard's 30; as digits in a string, read too.
    expect(parseDueCharge(PIX_API, 'create due charge', answer(201, cobvBody({ calendario: { criacao: '2026-03-01T12:00:00Z', dataDeVencimento: '2026-03-10' } })))).toMatchObject({
      daysAfterDue: 30,
    });
    expect(
      parseDueCharge(
        PIX_API,
        'create due charge',
        answer(201, cobvBody({ calendario: { criacao: '2026-03-01T12:00:00Z', dataDeVencimento: '2026-03-10', validadeAposVencimento: '7' } })),
      ),
    ).toMatchObject({ daysAfterDue: 7 });
  });

  it('refuses an answer it cannot use as malformed, and a refusal as http with the code', () => {
    const malformed = (body: Record<string, unknown>) => parseDueCharge(PIX_API, 'create due charge', answer(201, cobvBody(body)));
    expect(malformed({ calendario: { criacao: '2026-03-01T12:00:00Z', dataDeVencimento: '10/03/2026' } })).toMatchObject({ kind: 'malformed' });
    expect(malformed({ calendario: { criacao: '2026-03-01T12:00:00Z', dataDeVencimento: '2026-03-10', validadeAposVencimento: -1 } })).toMatchObject({ kind: 'malformed' });
    expect(malformed({ pixCopiaECola: `${brCode.slice(0, -4)}0000` })).toMatchObject({ kind: 'malformed' });
    expect(malformed({ valor: { original: '10' } })).toMatchObject({ kind: 'malformed' });
    const refused = parseDueCharge(PIX_API, 'update due charge', answer(400, { type: 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida', title: 'Operação inválida.' }));
    expect(refused).toMatchObject({ kind: 'http', upstreamStatus: 400, providerCode: 'CobVOperacaoInvalida' });
    expect(parseDueCharge(PIX_API, 'create due charge', answer(204))).toMatchObject({ kind: 'malformed' });
    expect(parseReadDueCharge(PIX_API, answer(404))).toBeNull();
    expect(parseReadDueCharge(PIX_API, answer(503))).toMatchObject({ kind: 'http', upstreamStatus: 503 });
  });

  it('takes the due-date charge a refused create holds only when it is the same amount, key and due date', () => {
    const held = readCobV('t', 200, cobvBody(), ['pixCopiaECola']);
    expect(isSameCharge(held, request(), KEY)).toBe(true);
    expect(isSameCharge(held, request({ due: terms({ date: '2026-03-11' }) }), KEY)).toBe(false);
    expect(isSameCharge(held, request({ amountCents: 1 }), KEY)).toBe(false);
    expect(isConcluded(readCobV('t', 200, cobvBody({ status: 'CONCLUIDA' }), []))).toBe(true);
    expect(isConcluded(held)).toBe(false);
  });
});

describe('a due-date charge in the gateway’s terms', () => {
  const cobv = (status: string, extra: Record<string, unknown> = {}) => readCobV('t', 200, cobvBody({ status, ...extra }), ['pixCopiaECola']);
  // Due Tuesday 2026-03-10, payable 5 days more: to Sunday 2026-03-15, which moves to the next business
  // day (src/domain/due-charge.ts), Monday 2026-03-16, until its end in Brasília (UTC−3), 2026-03-17T02:59:59.999Z.
  const end = new Date('2026-03-17T02:59:59.999Z');
  const at = (iso: string | Date) => new Date(iso);

  it('expires at the end, in Brasília, of the due date plus validadeAposVencimento days', () => {
    expect(brasiliaDayEnd('2026-03-16')).toEqual(end);
    // In the former daylight saving time (UTC−2), the day ended an hour earlier in UTC.
    expect(brasiliaDayEnd('2018-12-01')).toEqual(new Date('2018-12-02T01:59:59.999Z'));
    expect(toPixApiCharge(cobv('ATIVA'), at('2026-03-01T12:00:00Z')).expiresAt).toEqual(end);
  });

  it.each([
    ['ATIVA', '2026-03-17T02:59:59.998Z', 'pending'],
    ['ATIVA', '2026-03-17T02:59:59.999Z', 'expired'],
    ['REMOVIDA_PELO_USUARIO_RECEBEDOR', '2026-03-05T12:00:00Z', 'cancelled'],
    ['REMOVIDO_PELO_USUARIO_RECEBEDOR', '2026-03-05T12:00:00Z', 'cancelled'],
    ['REMOVIDA_PELO_PSP', '2026-03-05T12:00:00Z', 'failed'],
    ['REMOVIDA_PELO_PSP', '2026-03-20T12:00:00Z', 'expired'],
    ['UM_STATUS_NOVO', '2026-04-20T12:00:00Z', 'pending'],
  ] as const)('%s read at %s is %s', (status, now, expected) => {
    expect(toPixApiCharge(cobv(status), at(now)).status).toBe(expected);
  });

  it('is paid, late and for more than its original value, with the Pix’s amount as what was paid', () => {
    const pix = { endToEndId: E2E, txid: TXID, valor: '1036.00', horario: '2026-03-14T15:00:00Z', componentesValor: { original: { valor: '1000.00' }, juros: { valor: '36.00' } } };
    const paid = toPixApiCharge(cobv('CONCLUIDA', { pix: [pix] }), at('2026-04-20T12:00:00Z'));
    expect(paid).toMatchObject({ status: 'paid', amountCents: 100_000, paidAt: at('2026-03-14T15:00:00Z'), pix: { endToEndId: E2E, paidAmountCents: 103_600 } });
    // Its callback confirms it for what the Pix carried: the PSP's charge amount is no reason to refuse.
    const [entry] = callbackEntries(Buffer.from(JSON.stringify({ pix: [pix] })));
    const events = confirmedEvents(entry!, readPix('t', 200, pix) as ReturnType<typeof readPix> & { txid: string }, cobv('CONCLUIDA', { pix: [pix] }));
    expect(events).toEqual([expect.objectContaining({ type: 'payment.confirmed', paymentRef: TXID, amountCents: 103_600 })]);
    const early = { ...pix, valor: '950.00', componentesValor: { original: { valor: '1000.00' }, desconto: { valor: '50.00' } } };
    expect(confirmedEvents(entry!, readPix('t', 200, early) as ReturnType<typeof readPix> & { txid: string }, cobv('CONCLUIDA', { pix: [early] }))).toEqual([
      expect.objectContaining({ amountCents: 95_000 }),
    ]);
  });
});

describe('batches (PUT and GET /lotecobv/{id})', () => {
  const batch = (charges: CreateChargeRequest[], id = 'bat_1'): ChargeBatchRequest => ({ id, description: '  Mensalidades de março  ', charges });
  const second = 'second0000000000000000000000';

  it("writes the standard's LoteCobVBody: the description and each charge's CobVSolicitada with its txid, at an id of digits", () => {
    const call = createChargeBatchCall(batch([request(), request({ txid: second, amountCents: 50_000 })]), KEY, 1000);
    expect(call).toMatchObject({ operation: 'create charge batch', method: 'PUT', path: `/lotecobv/${pixLoteId('bat_1')}` });
    expect(call.body).toEqual({
      descricao: 'Mensalidades de março',
      cobsv: [
        { ...dueChargeBody(request(), KEY), txid: TXID },
        { ...dueChargeBody(request({ txid: second, amountCents: 50_000 }), KEY), txid: second },
      ],
    });
    expect(readChargeBatchCall('bat_1')).toEqual({ operation: 'read charge batch', method: 'GET', path: `/lotecobv/${pixLoteId('bat_1')}` });
  });

  it('refuses a batch that is empty, over the most the PSP takes, with a txid twice, or a charge without due terms', () => {
    expect(() => createChargeBatchCall(batch([]), KEY, 1000)).toThrow(TypeError);
    expect(() => createChargeBatchCall(batch([request(), request({ txid: second })]), KEY, 1)).toThrow(TypeError);
    expect(() => createChargeBatchCall(batch([request(), request()]), KEY, 1000)).toThrow(TypeError);
    expect(() => createChargeBatchCall(batch([request({ due: null })]), KEY, 1000)).toThrow(TypeError);
  });

  it("takes the standard's 202, and 200, 201 or 204; a refusal is the PSP's problem", () => {
    for (const status of [200, 201, 202, 204]) expect(parseChargeBatchAccepted(PIX_API, answer(status))).toBeUndefined();
    expect(parseChargeBatchAccepted(PIX_API, answer(400, { type: 'https://pix.bcb.gov.br/api/v2/error/LoteCobVOperacaoInvalida', title: 'Lote inválido.' }))).toMatchObject({
      kind: 'http',
      providerCode: 'LoteCobVOperacaoInvalida',
    });
  });

  it('reads each charge of the batch: CRIADA created, NEGADA refused with its problem as text, EM_PROCESSAMENTO and a status not yet named processing', () => {
    const items = parseChargeBatch(
      PIX_API,
      answer(200, {
        id: 123,
        descricao: 'x',
        criacao: '2026-03-01T12:00:00Z',
        cobsv: [
          { txid: 'a'.repeat(26), status: 'CRIADA', criacao: '2026-03-01T12:00:01Z' },
          {
            txid: 'b'.repeat(26),
            status: 'NEGADA',
            problema: {
              type: 'https://pix.bcb.gov.br/api/v2/error/CobVOperacaoInvalida',
              title: 'Cobrança inválida.',
              status: 400,
              detail: 'A requisição não respeita o schema.',
              violacoes: [{ razao: 'O objeto cobv.devedor não respeita o _schema_.', propriedade: 'cobv.devedor' }],
            },
          },
          { txid: 'c'.repeat(26), status: 'EM_PROCESSAMENTO' },
          { txid: 'd'.repeat(26), status: 'EM_FILA' },
          { txid: 'e'.repeat(26), status: 'NEGADA' },
        ],
      }),
    );
    expect(items).toEqual([
      { txid: 'a'.repeat(26), outcome: 'created', problem: null },
      {
        txid: 'b'.repeat(26),
        outcome: 'refused',
        problem: 'Cobrança inválida.: A requisição não respeita o schema. (cobv.devedor: O objeto cobv.devedor não respeita o _schema_.)',
      },
      { txid: 'c'.repeat(26), outcome: 'processing', problem: null },
      { txid: 'd'.repeat(26), outcome: 'processing', problem: null },
      { txid: 'e'.repeat(26), outcome: 'refused', problem: expect.any(String) },
    ]);
    expect(parseChargeBatch(PIX_API, answer(404))).toBeNull();
    expect(parseChargeBatch(PIX_API, answer(200, { id: 1, cobsv: 'none' }))).toBeInstanceOf(UpstreamError);
  });

  it('derives a batch id of digits the same way every time, and keeps one that already is', () => {
    expect(pixLoteId('12345')).toBe('12345');
    expect(pixLoteId('bat_1')).toMatch(/^[1-9]\d{14}$/);
    expect(pixLoteId('bat_1')).toBe(pixLoteId('bat_1'));
    expect(pixLoteId('bat_2')).not.toBe(pixLoteId('bat_1'));
    expect(pixLoteId('0123')).toMatch(/^[1-9]\d{14}$/);
  });
});

describe('scopes', () => {
  it('asks for the due-date and batch scopes only for what the profile declares', () => {
    const { recurring: _recurring, dueCharges: _due, chargeBatches: _batches, ...standardOnly } = PIX_API;
    expect(scopesOf(standardOnly)).toEqual(STANDARD_SCOPES);
    expect(scopesOf({ ...standardOnly, dueCharges: { source: 'https://example.com' } })).toEqual([...STANDARD_SCOPES, ...DUE_CHARGE_SCOPES]);
    expect(scopesOf(PIX_API)).toEqual([...STANDARD_SCOPES, ...RECURRING_SCOPES, ...DUE_CHARGE_SCOPES, ...CHARGE_BATCH_SCOPES]);
    expect(DUE_CHARGE_SCOPES).toEqual(['cobv.read', 'cobv.write', 'payloadlocation.read', 'payloadlocation.write']);
    expect(CHARGE_BATCH_SCOPES).toEqual(['lotecobv.read', 'lotecobv.write']);
  });
});

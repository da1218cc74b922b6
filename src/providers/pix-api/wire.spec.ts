import { createDynamicPix, hasError } from 'pix-utils';
import { UpstreamError } from '../provider-adapter';
import {
  type Cob,
  COB_STATUSES,
  cobPaymentStatus,
  type Devolucao,
  DEVOLUCAO_NATUREZAS,
  DEVOLUCAO_STATUSES,
  devolucaoOrigin,
  devolucaoRefundStatus,
  devolucaoReport,
  isBrCode,
  readCob,
  readDevolucao,
  readPix,
  toPixApiCharge,
  wireCents,
} from './wire';

const brCode = (() => {
  const pix = createDynamicPix({ merchantName: 'LOJA TESTE', merchantCity: 'SAO PAULO', url: 'pix.example.com/qr/v2/abc123' });
  if (hasError(pix)) throw new Error(pix.message);
  return pix.toBRCode();
})();

const TXID = 'abcdefghijklmnopqrstuvwxyz01234';
const E2E = 'E12345678202601151200abcdefghijk';
const CREATED = '2026-01-15T12:00:00Z';

function cobBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    calendario: { criacao: CREATED, expiracao: 3600 },
    txid: TXID,
    revisao: 0,
    status: 'ATIVA',
    valor: { original: '10.50' },
    chave: 'recebedor@example.com',
    pixCopiaECola: brCode,
    ...overrides,
  };
}

const read = (body: unknown, fields: readonly string[] = ['pixCopiaECola']) => readCob('Test: read charge', 200, body, fields);

async function malformed(fn: () => unknown): Promise<UpstreamError> {
  try {
    fn();
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('expected an UpstreamError');
}

describe('wireCents', () => {
  it("reads the standard's money", () => {
    expect(wireCents('10.50')).toBe(1050);
    expect(wireCents('0.01')).toBe(1);
    expect(wireCents('1234567890.99')).toBe(123456789099);
  });

  it.each(['10.5', '10', '1,00', '-1.00', ' 1.00', '1.000', 10.5, null])('refuses %p', (value) => {
    expect(wireCents(value)).toBeUndefined();
  });
});

describe('isBrCode', () => {
  it('takes a BR Code with its CRC', () => {
    expect(isBrCode(brCode)).toBe(true);
  });

  it('refuses one whose CRC does not match, or that is not EMV', () => {
    expect(isBrCode(`${brCode.slice(0, -4)}0000`)).toBe(false);
    expect(isBrCode(brCode.replace('LOJA', 'LOJX'))).toBe(false);
    expect(isBrCode('not a br code')).toBe(false);
  });
});

describe('readCob', () => {
  it('reads a charge', () => {
    expect(read(cobBody())).toEqual({
      txid: TXID,
      status: 'ATIVA',
      createdAt: new Date(CREATED),
      expiresInSeconds: 3600,
      amountCents: 1050,
      chave: 'recebedor@example.com',
      copyPaste: brCode,
      pix: [],
    });
  });

  it("takes the BR Code from Sicoob's brcode when the profile says so, never rebuilding one", () => {
    const body = cobBody({ pixCopiaECola: undefined, brcode: brCode });
    expect(read(body, ['pixCopiaECola', 'brcode']).copyPaste).toBe(brCode);
  });

  it("defaults expiracao to the standard's 86400 seconds", () => {
    expect(read(cobBody({ calendario: { criacao: CREATED } })).expiresInSeconds).toBe(86_400);
  });

  it('reads expiracao written as the document\'s own example writes it, a string of digits ("3600")', () => {
    expect(read(cobBody({ calendario: { criacao: CREATED, expiracao: '3600' } })).expiresInSeconds).toBe(3600);
  });

  it('reads txid spelled txId, as one PSP writes it', () => {
    expect(read(cobBody({ txid: undefined, txId: TXID })).txid).toBe(TXID);
    expect(readPix('Test', 200, { endToEndId: E2E, txId: TXID, valor: '1.00', horario: CREATED }).txid).toBe(TXID);
  });

  it('reads a charge without a BR Code: pixCopiaECola is optional in CobGerada and CobCompleta', () => {
    expect(read(cobBody({ pixCopiaECola: undefined })).copyPaste).toBeNull();
    expect(toPixApiCharge(read(cobBody({ pixCopiaECola: undefined })), new Date(CREATED)).copyPaste).toBe('');
  });

  it('reads RFC 3339 times with any offset, fractions of any length, lower-case t and z, and a leap second', () => {
    const at = (criacao: string) => read(cobBody({ calendario: { criacao, expiracao: 3600 } })).createdAt.toISOString();
    expect(at('2026-01-15T09:00:00.123456-03:00')).toBe('2026-01-15T12:00:00.123Z');
    expect(at('2026-01-15t12:00:00z')).toBe('2026-01-15T12:00:00.000Z');
    expect(at('2026-01-15T14:30:00+02:30')).toBe('2026-01-15T12:00:00.000Z');
    expect(at('2016-12-31T23:59:60Z')).toBe('2016-12-31T23:59:59.000Z');
  });

  it('keeps a status the standard does not name as null (new enum elements are compatible changes), and reads REMOVIDO_ as REMOVIDA_', () => {
    expect(read(cobBody({ status: 'EXPIRADA' })).status).toBeNull();
    expect(cobPaymentStatus(read(cobBody({ status: 'EXPIRADA' })), new Date('2027-01-01T00:00:00Z'))).toBe('pending');
    expect(read(cobBody({ status: 'REMOVIDO_PELO_USUARIO_RECEBEDOR' })).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(read(cobBody({ status: 'REMOVIDO_PELO_PSP' })).status).toBe('REMOVIDA_PELO_PSP');
  });

  it.each([
    ['not an object', 'text'],
    ['a BR Code with a wrong CRC', cobBody({ pixCopiaECola: `${brCode.slice(0, -4)}0000` })],
    ['no status', cobBody({ status: undefined })],
    ['a status that is not text', cobBody({ status: 3 })],
    ['expiracao as text that is not a number', cobBody({ calendario: { criacao: CREATED, expiracao: '1h' } })],
    ['money as a number', cobBody({ valor: { original: 10.5 } })],
    ['no criacao', cobBody({ calendario: { expiracao: 3600 } })],
    ['a negative expiracao', cobBody({ calendario: { criacao: CREATED, expiracao: -1 } })],
    ['pix that is not a list', cobBody({ pix: {} })],
    ['a Pix without endToEndId', cobBody({ status: 'CONCLUIDA', pix: [{ valor: '10.50', horario: CREATED }] })],
  ])('calls %s malformed', async (_, body) => {
    const error = await malformed(() => read(body));
    expect(error).toMatchObject({ kind: 'malformed', upstreamStatus: 200 });
    expect(error.message).toMatch(/^Test: read charge: /);
  });
});

describe('readPix and readDevolucao', () => {
  it('read a Pix with its refunds and the payer a PSP adds', () => {
    const pix = readPix('Test: read pix', 200, {
      endToEndId: E2E,
      txid: TXID,
      valor: '10.50',
      horario: '2026-01-15T12:01:00.123-03:00',
      pagador: { nome: 'Ana Souza', cpf: '12345678909' },
      devolucoes: [{ id: 'ref1', rtrId: 'D12345678202601151200abcdefghijk', valor: '5.00', horario: { solicitacao: CREATED }, status: 'EM_PROCESSAMENTO' }],
    });
    expect(pix).toEqual({
      endToEndId: E2E,
      txid: TXID,
      amountCents: 1050,
      horario: new Date('2026-01-15T15:01:00.123Z'),
      payer: { name: 'Ana Souza', document: '12345678909' },
      devolucoes: [
        {
          id: 'ref1',
          rtrId: 'D12345678202601151200abcdefghijk',
          amountCents: 500,
          status: 'EM_PROCESSAMENTO',
          reason: null,
          natureza: 'ORIGINAL',
          requestedAt: new Date(CREATED),
          settledAt: null,
        },
      ],
    });
  });

  it("read a refund's nature (absent is ORIGINAL, as the standard says; one it does not name is null), its times and its motivo", async () => {
    const refund = (overrides: Record<string, unknown>) => readDevolucao('Test', 200, { id: 'r', valor: '1.00', status: 'DEVOLVIDO', ...overrides });
    expect(refund({ natureza: 'MED_FRAUDE', motivo: 'Fraude', horario: { solicitacao: CREATED, liquidacao: '2026-01-15T12:00:05Z' } })).toMatchObject({
      natureza: 'MED_FRAUDE',
      reason: 'Fraude',
      requestedAt: new Date(CREATED),
      settledAt: new Date('2026-01-15T12:00:05Z'),
    });
    expect(refund({})).toMatchObject({ natureza: 'ORIGINAL', requestedAt: null, settledAt: null });
    expect(refund({ natureza: 'MED_NOVA' }).natureza).toBeNull();
    await expect(malformed(() => refund({ horario: { liquidacao: 'ontem' } }))).resolves.toMatchObject({ kind: 'malformed' });
    await expect(malformed(() => refund({ horario: 'ontem' }))).resolves.toMatchObject({ kind: 'malformed' });
  });

  it('read a Pix without txid or payer', () => {
    expect(readPix('Test', 200, { endToEndId: E2E, valor: '1.00', horario: CREATED })).toMatchObject({ txid: null, payer: null, devolucoes: [] });
  });

  it('read a refund of a status the standard does not name as still pending, and one without a status as malformed', async () => {
    const refund = readDevolucao('Test', 201, { id: 'r', valor: '1.00', status: 'PENDENTE' });
    expect(refund.status).toBeNull();
    expect(devolucaoRefundStatus(refund.status)).toBe('pending');
    await expect(malformed(() => readDevolucao('Test', 201, { id: 'r', valor: '1.00' }))).resolves.toMatchObject({ kind: 'malformed' });
  });
});

function refundOf(overrides: Partial<Devolucao>): Devolucao {
  return { id: 'r1', rtrId: null, amountCents: 100, status: 'DEVOLVIDO', reason: null, natureza: 'ORIGINAL', requestedAt: null, settledAt: null, ...overrides };
}

describe('charge status', () => {
  const cob = (status: Cob['status'], extra: Partial<Cob> = {}): Cob => ({ ...read(cobBody()), status, ...extra });
  const at = (iso: string) => new Date(iso);
  const paid = (devolucoes: Cob['pix'][number]['devolucoes'] = []) => [
    { endToEndId: E2E, txid: TXID, amountCents: 1050, horario: at('2026-01-15T12:10:00Z'), payer: null, devolucoes },
  ];

  it('maps every status the standard has', () => {
    const now = at('2026-01-15T12:30:00Z');
    const mapped = Object.fromEntries(COB_STATUSES.map((status) => [status, cobPaymentStatus(cob(status, status === 'CONCLUIDA' ? { pix: paid() } : {}), now)]));
    expect(mapped).toEqual({ ATIVA: 'pending', CONCLUIDA: 'paid', REMOVIDA_PELO_USUARIO_RECEBEDOR: 'cancelled', REMOVIDA_PELO_PSP: 'failed' });
  });

  it('computes expiry: ATIVA past calendario.criacao + expiracao is expired (the API has no expired status)', () => {
    expect(cobPaymentStatus(cob('ATIVA'), at('2026-01-15T12:59:59.999Z'))).toBe('pending');
    expect(cobPaymentStatus(cob('ATIVA'), at('2026-01-15T13:00:00Z'))).toBe('expired');
  });

  it('calls a charge the PSP removed after its expiry expired, before it failed', () => {
    expect(cobPaymentStatus(cob('REMOVIDA_PELO_PSP'), at('2026-01-15T13:00:00Z'))).toBe('expired');
    expect(cobPaymentStatus(cob('REMOVIDA_PELO_PSP'), at('2026-01-15T12:00:01Z'))).toBe('failed');
  });

  it('calls a paid charge refunded once its settled refunds return all that was paid', () => {
    const now = at('2026-01-15T12:30:00Z');
    const devolucao = (amountCents: number, status: 'DEVOLVIDO' | 'EM_PROCESSAMENTO' | 'NAO_REALIZADO') => refundOf({ id: `r${amountCents}${status}`, amountCents, status });
    expect(cobPaymentStatus(cob('CONCLUIDA', { pix: paid([devolucao(500, 'DEVOLVIDO')]) }), now)).toBe('paid');
    expect(cobPaymentStatus(cob('CONCLUIDA', { pix: paid([devolucao(1050, 'EM_PROCESSAMENTO')]) }), now)).toBe('paid');
    expect(cobPaymentStatus(cob('CONCLUIDA', { pix: paid([devolucao(1050, 'NAO_REALIZADO')]) }), now)).toBe('paid');
    expect(cobPaymentStatus(cob('CONCLUIDA', { pix: paid([devolucao(500, 'DEVOLVIDO'), devolucao(550, 'DEVOLVIDO')]) }), now)).toBe('refunded');
  });

  it('maps every refund status', () => {
    expect(Object.fromEntries(DEVOLUCAO_STATUSES.map((status) => [status, devolucaoRefundStatus(status)]))).toEqual({
      EM_PROCESSAMENTO: 'pending',
      DEVOLVIDO: 'succeeded',
      NAO_REALIZADO: 'failed',
    });
  });

  it("tells MED returns apart by their nature; the receiver's own, and a nature not named yet, are the PSP's", () => {
    expect(Object.fromEntries(DEVOLUCAO_NATUREZAS.map((natureza) => [natureza, devolucaoOrigin(natureza)]))).toEqual({
      ORIGINAL: 'psp',
      RETIRADA: 'psp',
      MED_OPERACIONAL: 'med',
      MED_FRAUDE: 'med',
      MED_PIX_AUTOMATICO: 'med',
    });
    expect(devolucaoOrigin(null)).toBe('psp');
  });

  it("reports a refund with its failure's reason only when it failed (motivo may explain any status)", () => {
    expect(devolucaoReport(refundOf({ id: 'MED1', natureza: 'MED_OPERACIONAL', reason: 'Devolvido', amountCents: 700 }))).toEqual({
      providerRefundId: 'MED1',
      status: 'succeeded',
      amountCents: 700,
      externalOrigin: 'med',
      failureReason: null,
      gatewayRefundId: null,
    });
    expect(devolucaoReport(refundOf({ status: 'NAO_REALIZADO', reason: 'Conta encerrada' }))).toMatchObject({ status: 'failed', failureReason: 'Conta encerrada' });
    expect(devolucaoReport(refundOf({ status: 'NAO_REALIZADO' }))).toMatchObject({ status: 'failed', failureReason: 'not carried out' });
    expect(devolucaoReport(refundOf({ status: null }))).toMatchObject({ status: 'pending', failureReason: null });
  });

  it('lists every refund of every Pix of a paid charge, the partly returned charge still paid', () => {
    const [first] = paid([refundOf({ id: 'ref1', amountCents: 300 }), refundOf({ id: 'MED1', amountCents: 200, natureza: 'MED_FRAUDE', status: 'EM_PROCESSAMENTO' })]);
    const second = { ...first!, endToEndId: E2E.replace('E', 'F'), devolucoes: [refundOf({ id: 'ref2', amountCents: 50, status: 'NAO_REALIZADO', reason: 'recusada' })] };
    const charge = toPixApiCharge(cob('CONCLUIDA', { pix: [first!, second] }), at('2026-01-15T12:30:00Z'));
    expect(charge.status).toBe('paid');
    expect(charge.refunds).toEqual([
      { providerRefundId: 'ref1', status: 'succeeded', amountCents: 300, externalOrigin: 'psp', failureReason: null, gatewayRefundId: 'ref_1' },
      { providerRefundId: 'MED1', status: 'pending', amountCents: 200, externalOrigin: 'med', failureReason: null, gatewayRefundId: null },
      { providerRefundId: 'ref2', status: 'failed', amountCents: 50, externalOrigin: 'psp', failureReason: 'recusada', gatewayRefundId: 'ref_2' },
    ]);
  });

  it('reports what a paid charge has: the Pix, what was paid, the payer with the document masked', () => {
    const pix = [{ ...paid()[0]!, payer: { name: 'Ana Souza', document: '12345678909' } }];
    expect(toPixApiCharge(cob('CONCLUIDA', { pix }), at('2026-01-15T12:30:00Z'))).toEqual({
      providerPaymentId: TXID,
      txid: TXID,
      status: 'paid',
      amountCents: 1050,
      copyPaste: brCode,
      expiresAt: at('2026-01-15T13:00:00Z'),
      paidAt: at('2026-01-15T12:10:00Z'),
      pix: { endToEndId: E2E, paidAmountCents: 1050, payer: { name: 'Ana Souza', documentMasked: '***.456.789-**' } },
      refunds: [],
    });
  });

  it('reports nothing paid on an open charge', () => {
    expect(toPixApiCharge(cob('ATIVA'), at('2026-01-15T12:30:00Z'))).toMatchObject({ status: 'pending', paidAt: null });
    expect(toPixApiCharge(cob('ATIVA'), at('2026-01-15T12:30:00Z')).pix).toBeUndefined();
    expect(toPixApiCharge(cob('ATIVA'), at('2026-01-15T12:30:00Z')).refunds).toBeUndefined();
  });
});

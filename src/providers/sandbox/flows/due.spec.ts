import type { DueTerms } from '../../../domain/due-charge';
import { SANDBOX_BATCH_ITEM_STATUSES } from '../../../common/sandbox-wire/sandbox-due-api';
import { type CreateChargeRequest, UpstreamError } from '../../provider-adapter';
import type { OutboundAnswer } from '../../transport/transport';
import { sandboxDescriptor } from '../descriptor';
import { batchOutcome, createBatchCall, parseBatch, parseBatchAsked, readBatchCall } from './batch';
import { createChargeCall, parseUpdatedCharge, updateChargeCall } from './charge';

const TERMS: DueTerms = {
  date: '2026-03-10',
  daysAfterDue: 30,
  fine: { type: 'percent', value: 2_00 },
  interest: null,
  discount: { type: 'amount_per_day_early', days: 'business', value: 10 },
  abatement: null,
};

const request = (overrides: Partial<CreateChargeRequest> = {}): CreateChargeRequest => ({
  paymentId: 'pay_1',
  txid: 'abcdefghijklmnopqrstuvwxyz012345',
  amountCents: 45_000,
  currency: 'BRL',
  description: 'Mensalidade',
  externalId: 'student-1',
  payer: { document: '12345678909', name: 'Ana Souza' },
  expiresInSeconds: 3600,
  notificationUrl: 'http://gateway.test/webhooks/sandbox',
  due: TERMS,
  ...overrides,
});

const answer = (status: number, body?: unknown): OutboundAnswer => ({ status, headers: {}, text: body === undefined ? '' : JSON.stringify(body) });

describe('sandbox due-date charges and batches (flows)', () => {
  it('declares due-date charges and batches of up to 1,000, with its docs page as the source', () => {
    expect(sandboxDescriptor({ baseUrl: 'http://sandbox.test', isProduction: false }).capabilities).toMatchObject({
      dueCharges: { source: 'docs/sandbox.md' },
      chargeBatches: { maxCharges: 1_000, source: 'docs/sandbox.md' },
    });
  });

  it('creates a due-date charge with its terms in two-place decimals and the address (the CEP as its eight digits), and no expiresIn', () => {
    const call = createChargeCall(request({ payerAddress: { street: 'Rua A, 1', city: 'Recife', state: 'PE', zip: '50000-000' } }), undefined);
    expect(call).toMatchObject({ method: 'POST', path: '/charges', headers: { 'idempotency-key': request().txid } });
    expect(call.body).toMatchObject({
      amount: '450.00',
      due: { date: '2026-03-10', daysAfterDue: 30, fine: { type: 'percent', value: '2.00' }, discount: { type: 'amount_per_day_early', days: 'business', value: '0.10' } },
      recipientAddress: { street: 'Rua A, 1', city: 'Recife', state: 'PE', zip: '50000000' },
    });
    expect(call.body).not.toHaveProperty('expiresIn');
  });

  it('sends no address with an immediate charge, which lasts expiresIn', () => {
    const call = createChargeCall(request({ due: null, payerAddress: { street: 'Rua A, 1', city: 'Recife', state: 'PE', zip: '50000000' } }), undefined);
    expect(call.body).toMatchObject({ expiresIn: 3600 });
    expect(call.body).not.toHaveProperty('due');
    expect(call.body).not.toHaveProperty('recipientAddress');
  });

  it('changes a charge with PATCH, its whole amount and terms, by the sandbox id or the txid', () => {
    expect(updateChargeCall({ txid: 'tx1', providerPaymentId: 'sbx_1', due: true }, { amountCents: 100, due: TERMS })).toMatchObject({
      operation: 'update',
      method: 'PATCH',
      path: '/charges/sbx_1',
      body: { amount: '1.00', due: { date: '2026-03-10' } },
    });
    expect(updateChargeCall({ txid: 'tx1', providerPaymentId: null }, { amountCents: 100, due: TERMS }).path).toBe('/charges/tx1');
    expect(parseUpdatedCharge(answer(409, { error: { code: 'NOT_A_DUE_CHARGE', message: 'immediate' } }))).toMatchObject({
      kind: 'http',
      upstreamStatus: 409,
      providerCode: 'NOT_A_DUE_CHARGE',
    });
  });

  it('asks for a batch under its id, each charge a create body with its terms and the account secret, and reads it with a larger answer limit', () => {
    const call = createBatchCall({ id: 'lote 1', description: 'Março', charges: [request(), request({ txid: 'b'.repeat(32) })] }, 'whsec_account_secret');
    expect(call).toMatchObject({ operation: 'create batch', method: 'PUT', path: '/batches/lote%201' });
    const body = call.body as { description: string; charges: Record<string, unknown>[] };
    expect(body.description).toBe('Março');
    expect(body.charges).toHaveLength(2);
    expect(body.charges[1]).toMatchObject({ txid: 'b'.repeat(32), webhookSecret: 'whsec_account_secret', due: { date: '2026-03-10' } });
    expect(body.charges[0]).not.toHaveProperty('expiresIn');
    expect(() => createBatchCall({ id: 'x', description: 'Março', charges: [request({ due: null })] }, undefined)).toThrow(/no due date/);
    expect(readBatchCall('lote 1')).toMatchObject({ method: 'GET', path: '/batches/lote%201', maxResponseBytes: 1024 * 1024 });
    expect(parseBatchAsked(answer(202, {}))).toBeUndefined();
    expect(parseBatchAsked(answer(409, { error: { code: 'BATCH_ID_CONFLICT', message: 'other' } }))).toMatchObject({ upstreamStatus: 409, providerCode: 'BATCH_ID_CONFLICT' });
  });

  it.each(SANDBOX_BATCH_ITEM_STATUSES)('maps the batch status %s', (status) => {
    expect(['processing', 'created', 'refused']).toContain(batchOutcome(status));
  });

  it("reads each charge's outcome, a refusal's problem as `CODE: message`", () => {
    const body = {
      id: 'lote-1',
      charges: [
        { txid: 'a', status: 'CRIADA', problem: null },
        { txid: 'b', status: 'NEGADA', problem: { code: 'CHARGE_REFUSED', message: 'No.' } },
        { txid: 'c', status: 'EM_PROCESSAMENTO', problem: null },
        { txid: 'd', status: 'NEGADA', problem: null },
      ],
    };
    expect(parseBatch(answer(200, body))).toEqual([
      { txid: 'a', outcome: 'created', problem: null },
      { txid: 'b', outcome: 'refused', problem: 'CHARGE_REFUSED: No.' },
      { txid: 'c', outcome: 'processing', problem: null },
      { txid: 'd', outcome: 'refused', problem: 'The sandbox gave no reason.' },
    ]);
  });

  it.each([
    ['no charges', { id: 'x' }, 'no charges'],
    ['an unknown status', { charges: [{ txid: 'a', status: 'REMOVIDA' }] }, 'unknown status'],
    ['a charge without a txid', { charges: [{ status: 'CRIADA' }] }, 'has no txid'],
  ])('refuses a batch answer with %s as malformed', (_name, body, why) => {
    const parsed = parseBatch(answer(200, body));
    expect(parsed).toBeInstanceOf(UpstreamError);
    expect(parsed).toMatchObject({ kind: 'malformed', message: expect.stringContaining(why) });
  });
});

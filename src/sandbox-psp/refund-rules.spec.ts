import { ChargeStore, type StoredCharge, toWire } from './charge-store';
import { existingRefund, newRefund, outcomeOf, refundableCents, refundCourse, refundEvent, refusal, settle, SIMULATED_FAILURE_REASON, type StoredRefund } from './refund-rules';
import { SandboxHttpError } from './sandbox-errors';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
let counter = 0;

function paidCharge(amountCents = 1000): StoredCharge {
  counter += 1;
  return {
    id: `sbx_${counter}`,
    txid: `txid${String(counter).padStart(28, '0')}`,
    status: 'CONCLUIDA',
    amountCents,
    description: null,
    externalId: 'order-1',
    recipient: { document: '12345678909', name: 'Ana Souza' },
    pixCopiaECola: '000201…',
    notificationUrl: 'http://127.0.0.1:9/webhooks/sandbox',
    createdAt: new Date(NOW),
    expiresAt: new Date(NOW + 3600_000),
    paidAt: new Date(NOW),
    pix: {
      endToEndId: 'E99999999202601011200abcdefghijk',
      amount: (amountCents / 100).toFixed(2),
      payer: { document: '12345678909', name: 'Ana Souza' },
      paidAt: new Date(NOW).toISOString(),
    },
    refunds: [],
  };
}

function refundOf(charge: StoredCharge, amountCents: number, reason: string | null = null, refundId: string | null = `ref_${counter}_${amountCents}`): StoredRefund {
  const refund = newRefund(charge, { refundId, amountCents, origin: 'api', reason }, NOW);
  charge.refunds.push(refund);
  return refund;
}

describe('sandbox refunds', () => {
  it.each([
    [null, 'settle'],
    ['Item devolvido', 'settle'],
    ['teste SANDBOX:FAIL', 'fail'],
    ['sandbox:hold', 'hold'],
    ['sandbox:fail sandbox:hold', 'hold'],
  ] as const)('reads the course of a refund from its reason (%s: %s)', (reason, course) => {
    expect(refundCourse(reason)).toBe(course);
  });

  it('ends a refund told to settle without a status as its course says: only the fail marker fails it', () => {
    expect([outcomeOf('settle'), outcomeOf('hold'), outcomeOf('fail')]).toEqual(['DEVOLVIDO', 'DEVOLVIDO', 'NAO_REALIZADO']);
  });

  it('counts refunds in process and made as taken, and failed ones as given back', () => {
    const charge = paidCharge(1000);
    const pending = refundOf(charge, 300);
    const done = refundOf(charge, 200);
    settle(charge, done, 'DEVOLVIDO', null, NOW);
    expect(refundableCents(charge)).toBe(500);
    settle(charge, pending, 'NAO_REALIZADO', null, NOW);
    expect(refundableCents(charge)).toBe(800);
    expect(pending.failureReason).toBe(SIMULATED_FAILURE_REASON);
  });

  it('refuses zero, an unpaid charge, and more than is left, each with its code', () => {
    const charge = paidCharge(1000);
    refundOf(charge, 900);
    expect(refusal(charge, 0)).toMatchObject({ statusCode: 400, code: 'INVALID_REQUEST', field: 'amount' });
    expect(refusal(charge, 101)).toMatchObject({ statusCode: 400, code: 'AMOUNT_EXCEEDS_AVAILABLE', message: expect.stringContaining('1.00 BRL left') });
    expect(refusal(charge, 100)).toBeUndefined();
    expect(refusal({ ...paidCharge(), status: 'ATIVA' }, 100)).toMatchObject({ statusCode: 400, code: 'CHARGE_NOT_PAID' });
  });

  it('answers the same refund id with its refund, and a conflict for another amount or charge', () => {
    const charge = paidCharge();
    const refund = refundOf(charge, 400);
    expect(existingRefund(charge, undefined, 400)).toBeUndefined();
    expect(existingRefund(charge, refund, 400)).toBe(refund);
    expect(existingRefund(charge, refund, 500)).toMatchObject({ statusCode: 409, code: 'REFUND_ID_CONFLICT' });
    expect(existingRefund(paidCharge(), refund, 400)).toBeInstanceOf(SandboxHttpError);
  });

  it('moves the charge to DEVOLVIDA once refunds made cover it, and settles a refund once', () => {
    const charge = paidCharge(1000);
    const first = refundOf(charge, 600);
    const second = refundOf(charge, 400);
    expect(settle(charge, first, 'DEVOLVIDO', null, NOW)).toBe(true);
    expect(charge.status).toBe('CONCLUIDA');
    expect(settle(charge, second, 'DEVOLVIDO', null, NOW + 1000)).toBe(true);
    expect(charge.status).toBe('DEVOLVIDA');
    expect(settle(charge, second, 'NAO_REALIZADO', 'late', NOW + 2000)).toBe(false);
    expect(second).toMatchObject({ status: 'DEVOLVIDO', failureReason: null, settledAt: new Date(NOW + 1000) });
  });

  it("posts a settled refund's reports under an id of the refund and its status, the same each time", () => {
    const charge = paidCharge(1000);
    const refund = refundOf(charge, 250, 'Item devolvido');
    expect(() => refundEvent(charge, refund, NOW)).toThrow(/not settled/);
    settle(charge, refund, 'DEVOLVIDO', null, NOW);
    const event = refundEvent(charge, refund, NOW + 5000);
    expect(event).toEqual({
      event: 'refund.succeeded',
      id: `evt_${refund.id}_devolvido`,
      created_at: new Date(NOW).toISOString(),
      data: {
        id: charge.id,
        txid: charge.txid,
        amount: 2.5,
        status: 'CONCLUIDA',
        refund: expect.objectContaining({ id: refund.id, refundId: refund.refundId, amount: '2.50', status: 'DEVOLVIDO', origin: 'api', reason: 'Item devolvido' }),
      },
    });
    expect(refundEvent(charge, refund, NOW + 9000)).toEqual(event);
  });

  it("finds refunds by either id, lists them on the charge's wire once there are any, and forgets them with their charge", () => {
    const store = new ChargeStore(1);
    const charge = paidCharge();
    store.add(charge);
    expect(toWire(charge)).not.toHaveProperty('refunds');
    const refund = newRefund(charge, { refundId: 'ref_abc', amountCents: 100, origin: 'api', reason: null }, NOW);
    store.addRefund(charge, refund);
    expect(store.findRefund(refund.id, NOW)).toEqual({ refund, charge });
    expect(store.findRefund('ref_abc', NOW)).toEqual({ refund, charge });
    expect(toWire(charge).refunds).toEqual([expect.objectContaining({ id: refund.id, refundId: 'ref_abc' })]);
    store.add(paidCharge());
    expect(store.findRefund(refund.id, NOW)).toBeUndefined();
    expect(store.findRefund('ref_abc', NOW)).toBeUndefined();
  });
});

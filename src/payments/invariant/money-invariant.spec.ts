import type { RefundReport } from '../../domain/provider-event';
import { compareMoney, type GatewayMoney, type PspMoney } from './money-invariant';

const paid = (overrides: Partial<GatewayMoney> = {}): GatewayMoney => ({
  status: 'paid',
  amountCents: 1050,
  paidAmountCents: 1050,
  returnedCents: 0,
  pendingRefunds: 0,
  ...overrides,
});
const pspPaid = (overrides: Partial<PspMoney> = {}): PspMoney => ({ status: 'paid', amountCents: 1050, paidAmountCents: 1050, refunds: [], ...overrides });
const refund = (amountCents: number, status: RefundReport['status'] = 'succeeded'): RefundReport => ({
  providerRefundId: `r${amountCents}${status}`,
  status,
  amountCents,
  externalOrigin: 'psp',
  failureReason: null,
});

describe('compareMoney', () => {
  it('finds nothing when both sides saw the same money come in and go back', () => {
    expect(compareMoney(paid(), pspPaid())).toEqual({ lines: [], unverifiable: [] });
    expect(compareMoney(paid({ status: 'partially_refunded', returnedCents: 300 }), pspPaid({ refunds: [refund(300), refund(200, 'failed'), refund(100, 'pending')] }))).toEqual({
      lines: [],
      unverifiable: [],
    });
    expect(compareMoney(paid({ status: 'refunded', returnedCents: 1050 }), pspPaid({ status: 'refunded', refunds: [refund(1050)] }))).toEqual({ lines: [], unverifiable: [] });
  });

  it('finds nothing for a charge neither side saw paid, whether or not the PSP lists refunds', () => {
    const closed = paid({ status: 'expired', paidAmountCents: null });
    expect(compareMoney(closed, { status: 'expired', amountCents: 1050, paidAmountCents: null, refunds: undefined })).toEqual({ lines: [], unverifiable: [] });
    expect(compareMoney({ ...closed, status: 'cancelled' }, { status: 'cancelled', amountCents: 1050, paidAmountCents: null, refunds: [] })).toEqual({
      lines: [],
      unverifiable: [],
    });
  });

  it('reports a charge the PSP holds paid that the gateway holds cancelled as money received', () => {
    const verdict = compareMoney(paid({ status: 'cancelled', paidAmountCents: null }), pspPaid());
    expect(verdict.lines).toEqual([{ field: 'received', gatewayCents: 0, pspCents: 1050, note: expect.stringContaining('cancelled') }]);
  });

  it('reports a payment the gateway holds paid that the PSP never saw paid', () => {
    const verdict = compareMoney(paid(), { status: 'pending', amountCents: 1050, paidAmountCents: null, refunds: undefined });
    expect(verdict.lines).toEqual([{ field: 'received', gatewayCents: 1050, pspCents: 0, note: expect.any(String) }]);
    expect(verdict.unverifiable).toEqual([]);
  });

  it('compares what was paid, not what was asked: the PSP paid amount, else the amount', () => {
    expect(compareMoney(paid({ paidAmountCents: null }), pspPaid({ paidAmountCents: null })).lines).toEqual([]);
    expect(compareMoney(paid(), pspPaid({ paidAmountCents: 2100 })).lines).toEqual([{ field: 'received', gatewayCents: 1050, pspCents: 2100, note: expect.any(String) }]);
  });

  it('reports a refund the PSP made that the gateway does not know', () => {
    const verdict = compareMoney(paid(), pspPaid({ refunds: [refund(300)] }));
    expect(verdict.lines).toEqual([{ field: 'returned', gatewayCents: 0, pspCents: 300, note: expect.any(String) }]);
  });

  it('reports a refund the gateway holds succeeded that the PSP does not list', () => {
    const verdict = compareMoney(paid({ status: 'partially_refunded', returnedCents: 500 }), pspPaid());
    expect(verdict.lines).toEqual([{ field: 'returned', gatewayCents: 500, pspCents: 0, note: expect.any(String) }]);
  });

  it('says so on the line when refunds still pending at the gateway may explain the difference', () => {
    const verdict = compareMoney(paid({ pendingRefunds: 1 }), pspPaid({ refunds: [refund(300)] }));
    expect(verdict.lines[0]!.note).toMatch(/1 refund still pending at the gateway/);
  });

  it('counts what was returned as unverifiable, never as a mismatch, when the PSP does not list refunds', () => {
    const verdict = compareMoney(paid({ status: 'partially_refunded', returnedCents: 500 }), pspPaid({ refunds: undefined }));
    expect(verdict).toEqual({ lines: [], unverifiable: ['returned'] });
  });

  it('without a refund list, still reports a PSP that says all was returned while the gateway has not recorded it', () => {
    const verdict = compareMoney(paid({ status: 'partially_refunded', returnedCents: 500 }), pspPaid({ status: 'refunded', refunds: undefined }));
    expect(verdict.lines).toEqual([{ field: 'status', gatewayCents: 500, pspCents: 1050, note: expect.stringContaining('refunded') }]);
    expect(verdict.unverifiable).toEqual(['returned']);
  });

  it("reports a gateway status that does not follow from the gateway's own amounts", () => {
    // Two succeeded refunds of 3.00 on a 6.00 payment say refunded; one says partially refunded.
    const sixReais = { amountCents: 600, paidAmountCents: 600 };
    const onePsp = pspPaid({ ...sixReais, refunds: [refund(300)] });
    expect(compareMoney(paid({ ...sixReais, status: 'refunded', returnedCents: 300 }), onePsp).lines).toEqual([
      { field: 'status', gatewayCents: 300, pspCents: null, note: expect.stringContaining('partially_refunded') },
    ]);
    expect(compareMoney(paid({ ...sixReais, status: 'paid', returnedCents: 300 }), onePsp).lines).toEqual([
      { field: 'status', gatewayCents: 300, pspCents: null, note: expect.stringContaining('partially_refunded') },
    ]);
    expect(compareMoney(paid({ ...sixReais, status: 'partially_refunded', returnedCents: 0 }), pspPaid(sixReais)).lines).toEqual([
      { field: 'status', gatewayCents: 0, pspCents: null, note: expect.stringContaining('paid') },
    ]);
  });

  it('reports both sides of a payment that differ in what came in and what went back, one line each', () => {
    const verdict = compareMoney(paid({ status: 'expired', paidAmountCents: null }), pspPaid({ status: 'refunded', refunds: [refund(1050)] }));
    expect(verdict.lines.map((line) => [line.field, line.gatewayCents, line.pspCents])).toEqual([
      ['received', 0, 1050],
      ['returned', 0, 1050],
    ]);
  });
});

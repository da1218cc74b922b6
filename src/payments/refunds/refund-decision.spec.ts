import { decideRefund } from './refund-decision';

const paid = { status: 'paid' as const, amountCents: 1000, refundedAmountCents: 0 };

describe('decideRefund', () => {
  it('a pending refund that succeeds returns money: partially, then whole', () => {
    expect(decideRefund(paid, { status: 'pending', amountCents: 300 }, { status: 'succeeded', amountCents: 300 })).toEqual({
      outcome: 'applied',
      refund: 'succeeded',
      payment: { status: 'partially_refunded', refundedAmountCents: 300 },
      note: null,
    });
    const partly = { status: 'partially_refunded' as const, amountCents: 1000, refundedAmountCents: 300 };
    expect(decideRefund(partly, { status: 'pending', amountCents: 700 }, { status: 'succeeded', amountCents: 700 })).toMatchObject({
      payment: { status: 'refunded', refundedAmountCents: 1000 },
    });
  });

  it('a failed refund moves no money', () => {
    expect(decideRefund(paid, { status: 'pending', amountCents: 300 }, { status: 'failed', amountCents: 300 })).toEqual({
      outcome: 'applied',
      refund: 'failed',
      payment: null,
      note: null,
    });
  });

  it('a settled refund never moves again, whatever is reported', () => {
    for (const known of ['succeeded', 'failed'] as const) {
      for (const status of ['pending', 'succeeded', 'failed'] as const) {
        expect(decideRefund(paid, { status: known, amountCents: 300 }, { status, amountCents: 300 })).toMatchObject({ outcome: 'ignored' });
      }
    }
  });

  it('a report of another amount than the refund is a mismatch', () => {
    expect(decideRefund(paid, { status: 'pending', amountCents: 300 }, { status: 'succeeded', amountCents: 400 })).toMatchObject({ outcome: 'amount_mismatch' });
  });

  it('a refund made outside the gateway is recorded, but never past what was paid nor on a payment never paid', () => {
    expect(decideRefund(paid, null, { status: 'succeeded', amountCents: 1000 })).toMatchObject({ outcome: 'applied', payment: { status: 'refunded' } });
    expect(decideRefund(paid, null, { status: 'pending', amountCents: 200 })).toMatchObject({ outcome: 'applied', refund: 'pending', payment: null });
    const partly = { status: 'partially_refunded' as const, amountCents: 1000, refundedAmountCents: 900 };
    expect(decideRefund(partly, null, { status: 'succeeded', amountCents: 200 })).toMatchObject({ outcome: 'amount_mismatch' });
    for (const status of ['pending', 'expired', 'cancelled', 'failed', 'refunded'] as const) {
      expect(decideRefund({ ...paid, status }, null, { status: 'succeeded', amountCents: 100 })).toMatchObject({ outcome: 'ignored' });
    }
  });
});

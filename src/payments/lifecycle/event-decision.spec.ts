import { PAYMENT_STATUSES, type PaymentStatus } from '../../domain/payment-status';
import { decideEvent } from './event-decision';
import { PAYMENT_EVENT_TYPES, statusForEvent } from '../../domain/provider-event';

const payment = (status: PaymentStatus, amountCents = 1050) => ({ status, amountCents });

describe('decideEvent', () => {
  it('applies every transition the status machine allows', () => {
    expect(decideEvent(payment('pending'), { type: 'payment.confirmed', amountCents: 1050 })).toEqual({ outcome: 'applied', target: 'paid', note: null, paidAfterClose: false });
    expect(decideEvent(payment('pending'), { type: 'payment.expired', amountCents: null }).outcome).toBe('applied');
    expect(decideEvent(payment('pending'), { type: 'payment.cancelled', amountCents: null }).outcome).toBe('applied');
    expect(decideEvent(payment('pending'), { type: 'payment.failed', amountCents: null }).outcome).toBe('applied');
    expect(decideEvent(payment('paid'), { type: 'payment.refunded', amountCents: 1050 })).toEqual({ outcome: 'applied', target: 'refunded', note: null, paidAfterClose: false });
  });

  it('ignores, with a note for the history, every other status and event pair', () => {
    const allowed = new Set([
      'pending>paid',
      'pending>expired',
      'pending>cancelled',
      'pending>failed',
      'paid>refunded',
      'partially_refunded>refunded',
      'cancelled>paid',
      'expired>paid',
    ]);
    for (const status of PAYMENT_STATUSES) {
      for (const type of PAYMENT_EVENT_TYPES) {
        if (allowed.has(`${status}>${statusForEvent(type)}`)) continue;
        const decision = decideEvent(payment(status), { type, amountCents: null });
        expect({ status, type, outcome: decision.outcome, paidAfterClose: decision.paidAfterClose }).toEqual({ status, type, outcome: 'ignored', paidAfterClose: false });
        expect(decision.note).toEqual(expect.any(String));
      }
    }
  });

  it('explains out-of-order and repeated events differently', () => {
    expect(decideEvent(payment('paid'), { type: 'payment.expired', amountCents: null }).note).toBe('A paid payment cannot become expired.');
    expect(decideEvent(payment('paid'), { type: 'payment.confirmed', amountCents: null }).note).toBe('The payment is already paid.');
  });

  it('never applies an event whose amount differs from the payment, whatever the state', () => {
    const pending = decideEvent(payment('pending', 1050), { type: 'payment.confirmed', amountCents: 1000 });
    expect(pending).toEqual({ outcome: 'amount_mismatch', target: 'paid', note: 'Event amount 10.00 does not match the payment amount 10.50.', paidAfterClose: false });
    expect(decideEvent(payment('paid', 1050), { type: 'payment.refunded', amountCents: 1051 }).outcome).toBe('amount_mismatch');
    expect(decideEvent(payment('pending', 1050), { type: 'payment.confirmed', amountCents: 0 }).outcome).toBe('amount_mismatch');
  });

  it('applies an event that reports no amount on the state machine alone', () => {
    expect(decideEvent(payment('pending', 1050), { type: 'payment.confirmed', amountCents: null }).outcome).toBe('applied');
  });

  it('reports an event for no payment as unmatched', () => {
    expect(decideEvent(null, { type: 'payment.confirmed', amountCents: 1050 })).toMatchObject({ outcome: 'unmatched', target: 'paid' });
  });

  describe('a Pix reported for a payment closed unpaid (docs/api.md, States: money received after close)', () => {
    it.each(['cancelled', 'expired'] as const)('pays a %s payment, flagged paidAfterClose, with a note for the history', (status) => {
      expect(decideEvent(payment(status), { type: 'payment.confirmed', amountCents: 1050 })).toEqual({
        outcome: 'applied',
        target: 'paid',
        note: `Paid after the payment was ${status}: the money was received and must go back to the payer.`,
        paidAfterClose: true,
      });
    });

    it('pays it on the state machine alone when the PSP reports no amount', () => {
      expect(decideEvent(payment('expired'), { type: 'payment.confirmed', amountCents: null })).toMatchObject({ outcome: 'applied', target: 'paid', paidAfterClose: true });
    });

    it('never pays it for another amount: a mismatch, as for an open payment', () => {
      expect(decideEvent(payment('cancelled', 1050), { type: 'payment.confirmed', amountCents: 990 })).toMatchObject({ outcome: 'amount_mismatch', paidAfterClose: false });
    });

    it('leaves a failed payment, and every other event for a closed one, ignored', () => {
      expect(decideEvent(payment('failed'), { type: 'payment.confirmed', amountCents: 1050 })).toMatchObject({ outcome: 'ignored', paidAfterClose: false });
      expect(decideEvent(payment('cancelled'), { type: 'payment.expired', amountCents: null })).toMatchObject({ outcome: 'ignored', paidAfterClose: false });
      expect(decideEvent(payment('expired'), { type: 'payment.refunded', amountCents: null })).toMatchObject({ outcome: 'ignored', paidAfterClose: false });
    });

    it('does not flag a payment that was open when paid, nor a paid one confirmed again', () => {
      expect(decideEvent(payment('pending'), { type: 'payment.confirmed', amountCents: 1050 }).paidAfterClose).toBe(false);
      expect(decideEvent(payment('paid'), { type: 'payment.confirmed', amountCents: 1050 })).toMatchObject({ outcome: 'ignored', paidAfterClose: false });
    });
  });

  it('applies a due-date charge paid with another amount than its original: what is due depends on the day', () => {
    const due = { status: 'pending' as const, amountCents: 10_000, due: true };
    expect(decideEvent(due, { type: 'payment.confirmed', amountCents: 10_250 })).toEqual({ outcome: 'applied', target: 'paid', note: null, paidAfterClose: false });
    expect(decideEvent({ ...due, due: false }, { type: 'payment.confirmed', amountCents: 10_250 }).outcome).toBe('amount_mismatch');
  });
});

import { PAYMENT_STATUSES, type PaymentStatus } from '../domain/payment-status';
import { decideEvent } from './event-decision';
import { PAYMENT_EVENT_TYPES, statusForEvent } from '../domain/provider-event';

const payment = (status: PaymentStatus, amountCents = 1050) => ({ status, amountCents });

describe('decideEvent', () => {
  it('applies every transition the status machine allows', () => {
    expect(decideEvent(payment('pending'), { type: 'payment.confirmed', amountCents: 1050 })).toEqual({ outcome: 'applied', target: 'paid', note: null });
    expect(decideEvent(payment('pending'), { type: 'payment.expired', amountCents: null }).outcome).toBe('applied');
    expect(decideEvent(payment('pending'), { type: 'payment.cancelled', amountCents: null }).outcome).toBe('applied');
    expect(decideEvent(payment('pending'), { type: 'payment.failed', amountCents: null }).outcome).toBe('applied');
    expect(decideEvent(payment('paid'), { type: 'payment.refunded', amountCents: 1050 })).toEqual({ outcome: 'applied', target: 'refunded', note: null });
  });

  it('ignores, with a note for the history, every other status and event pair', () => {
    const allowed = new Set(['pending>paid', 'pending>expired', 'pending>cancelled', 'pending>failed', 'paid>refunded', 'partially_refunded>refunded']);
    for (const status of PAYMENT_STATUSES) {
      for (const type of PAYMENT_EVENT_TYPES) {
        if (allowed.has(`${status}>${statusForEvent(type)}`)) continue;
        const decision = decideEvent(payment(status), { type, amountCents: null });
        expect({ status, type, outcome: decision.outcome }).toEqual({ status, type, outcome: 'ignored' });
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
    expect(pending).toEqual({ outcome: 'amount_mismatch', target: 'paid', note: 'Event amount 10.00 does not match the payment amount 10.50.' });
    expect(decideEvent(payment('paid', 1050), { type: 'payment.refunded', amountCents: 1051 }).outcome).toBe('amount_mismatch');
    expect(decideEvent(payment('pending', 1050), { type: 'payment.confirmed', amountCents: 0 }).outcome).toBe('amount_mismatch');
  });

  it('applies an event that reports no amount on the state machine alone', () => {
    expect(decideEvent(payment('pending', 1050), { type: 'payment.confirmed', amountCents: null }).outcome).toBe('applied');
  });

  it('reports an event for no payment as unmatched', () => {
    expect(decideEvent(null, { type: 'payment.confirmed', amountCents: 1050 })).toMatchObject({ outcome: 'unmatched', target: 'paid' });
  });
});

import type { ProviderRecurringCharge } from '../providers/recurring';
import { decideCharge, decideRecurrence } from './recurrence-decision';

const report = (over: Partial<ProviderRecurringCharge> = {}): ProviderRecurringCharge => ({
  txid: 't'.repeat(32),
  providerRecurrenceId: 'RR1',
  status: 'failed',
  open: true,
  amountCents: 8990,
  dueDate: '2026-12-05',
  attempts: [{ date: '2026-12-05', status: 'failed', endToEndId: null, reason: 'AM04' }],
  endToEndId: null,
  paidAt: null,
  failureReason: null,
  updatedAt: null,
  ...over,
});
const scheduled = { status: 'scheduled' as const, retries: 0, dueDate: '2026-12-05' };

describe('decideCharge', () => {
  it('retries a failed attempt the day after under three_in_seven_days', () => {
    expect(decideCharge(scheduled, 'three_in_seven_days', report(), '2026-12-05')).toEqual({ kind: 'retry', date: '2026-12-06' });
  });

  it('fails it at once without the policy, or when the PSP has closed the charge', () => {
    expect(decideCharge(scheduled, 'none', report(), '2026-12-05')).toEqual({ kind: 'move', to: 'failed', event: 'recurring_charge.failed' });
    expect(decideCharge(scheduled, 'three_in_seven_days', report({ open: false }), '2026-12-05')).toEqual({ kind: 'move', to: 'failed', event: 'recurring_charge.failed' });
  });

  it('waits while a retry it asked for has not been tried, and fails after the third', () => {
    const retrying = { status: 'retrying' as const, retries: 1, dueDate: '2026-12-05' };
    expect(decideCharge(retrying, 'three_in_seven_days', report(), '2026-12-06')).toEqual({ kind: 'none', note: null });
    const third = { status: 'retrying' as const, retries: 3, dueDate: '2026-12-05' };
    const four = Array.from({ length: 4 }, (_, i) => ({ date: `2026-12-0${5 + i}`, status: 'failed' as const, endToEndId: null, reason: 'AM04' }));
    expect(decideCharge(third, 'three_in_seven_days', report({ attempts: four }), '2026-12-08')).toEqual({ kind: 'move', to: 'failed', event: 'recurring_charge.failed' });
  });

  it('takes a pending charge (asked of the PSP, its answer not yet had) to whatever the PSP holds', () => {
    const pending = { ...scheduled, status: 'pending' as const };
    expect(decideCharge(pending, 'none', report({ status: 'scheduled', attempts: [] }), '2026-12-01')).toEqual({ kind: 'move', to: 'scheduled', event: null });
    expect(decideCharge(pending, 'none', report({ status: 'paid' }), '2026-12-05')).toEqual({ kind: 'move', to: 'paid', event: 'recurring_charge.paid' });
    expect(decideCharge(pending, 'three_in_seven_days', report(), '2026-12-05')).toEqual({ kind: 'retry', date: '2026-12-06' });
  });

  it('moves to paid, and ignores what the state machine refuses', () => {
    expect(decideCharge(scheduled, 'none', report({ status: 'paid' }), '2026-12-05')).toEqual({ kind: 'move', to: 'paid', event: 'recurring_charge.paid' });
    expect(decideCharge({ ...scheduled, status: 'paid' }, 'none', report({ status: 'cancelled' }), '2026-12-05').kind).toBe('none');
  });
});

describe('decideRecurrence', () => {
  const recurrence = (status: 'active' | 'rejected' | 'cancelled') => ({
    providerRecurrenceId: 'RR1',
    status,
    cancelledBy: null,
    copyPaste: null,
    authorizationExpiresAt: null,
    updatedAt: null,
  });
  it('authorizes, and refuses to move out of an end', () => {
    expect(decideRecurrence('pending_authorization', recurrence('active'))).toEqual({ to: 'active', event: 'recurrence.authorized', note: null });
    expect(decideRecurrence('cancelled', recurrence('active')).to).toBeNull();
    expect(decideRecurrence('active', recurrence('active'))).toEqual({ to: null, event: null, note: null });
  });
});

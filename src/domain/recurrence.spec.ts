import { addDays, brasiliaDate, canChargeMove, canRecurrenceMove, chargeHoldsCycle, cycleOf, cycleStart, dueDateProblem, isCalendarDate, nextRetryDate } from './recurrence';

describe('recurrence calendar', () => {
  it('accepts only real calendar dates written YYYY-MM-DD', () => {
    expect(['2026-02-28', '2028-02-29', '2026-12-31'].every(isCalendarDate)).toBe(true);
    expect(['2026-02-29', '2026-13-01', '2026-1-05', '05/12/2026', 20261205, null].some(isCalendarDate)).toBe(false);
  });

  it('takes the day in Brasília, not in UTC', () => {
    // 02:30 UTC on the 6th is still 23:30 on the 5th in Brasília (UTC-3).
    expect(brasiliaDate(new Date('2026-12-06T02:30:00Z'))).toBe('2026-12-05');
    expect(brasiliaDate(new Date('2026-12-06T03:30:00Z'))).toBe('2026-12-06');
  });

  it('numbers monthly cycles from the start day, the 31st falling back to shorter months’ last day', () => {
    expect(cycleOf('2026-01-31', 'monthly', '2026-01-31')).toBe(0);
    expect(cycleOf('2026-01-31', 'monthly', '2026-02-27')).toBe(0);
    expect(cycleOf('2026-01-31', 'monthly', '2026-02-28')).toBe(1);
    expect(cycleStart('2026-01-31', 'monthly', 1)).toBe('2026-02-28');
    expect(cycleOf('2026-01-31', 'monthly', '2026-03-30')).toBe(1);
    expect(cycleOf('2026-01-31', 'monthly', '2026-03-31')).toBe(2);
  });

  it('numbers weekly, quarterly, semiannual and annual cycles', () => {
    expect([0, 6, 7, 13, 14].map((d) => cycleOf('2026-12-01', 'weekly', addDays('2026-12-01', d)))).toEqual([0, 0, 1, 1, 2]);
    expect(cycleOf('2026-01-15', 'quarterly', '2026-04-14')).toBe(0);
    expect(cycleOf('2026-01-15', 'quarterly', '2026-04-15')).toBe(1);
    expect(cycleOf('2026-01-15', 'semiannual', '2026-07-15')).toBe(1);
    expect(cycleOf('2026-01-15', 'annual', '2027-01-14')).toBe(0);
    expect(cycleOf('2026-01-15', 'annual', '2027-01-15')).toBe(1);
    expect(cycleOf('2026-01-15', 'monthly', '2026-01-14')).toBe(-1);
  });

  it('says why a due date cannot be a charge’s', () => {
    const recurrence = { startDate: '2026-12-01', endDate: '2027-06-01' };
    const lead = { minDays: 2, maxDays: 10 };
    expect(dueDateProblem('2026-12-04', '2026-12-05', recurrence, lead)).toBe('before_today');
    expect(dueDateProblem('2026-11-30', '2026-11-26', recurrence, lead)).toBe('before_start');
    expect(dueDateProblem('2027-06-02', '2027-05-28', recurrence, lead)).toBe('after_end');
    expect(dueDateProblem('2026-12-06', '2026-12-05', recurrence, lead)).toBe('too_soon');
    expect(dueDateProblem('2026-12-16', '2026-12-05', recurrence, lead)).toBe('too_far');
    expect(dueDateProblem('2026-12-07', '2026-12-05', recurrence, lead)).toBeNull();
    expect(dueDateProblem('2026-12-15', '2026-12-05', recurrence, lead)).toBeNull();
  });

  it('dates retries after the last attempt, at most three, within the due date plus seven days', () => {
    expect(nextRetryDate('2026-12-05', '2026-12-05', '2026-12-05', 0)).toBe('2026-12-06');
    expect(nextRetryDate('2026-12-05', '2026-12-08', '2026-12-09', 1)).toBe('2026-12-10');
    expect(nextRetryDate('2026-12-05', '2026-12-12', '2026-12-12', 2)).toBeNull();
    expect(nextRetryDate('2026-12-05', '2026-12-06', '2026-12-06', 3)).toBeNull();
  });
});

describe('recurrence states', () => {
  it('moves a recurrence only forward, and never out of an end', () => {
    expect(canRecurrenceMove('pending_authorization', 'active')).toBe(true);
    expect(canRecurrenceMove('active', 'cancelled')).toBe(true);
    expect(canRecurrenceMove('active', 'rejected')).toBe(false);
    expect(canRecurrenceMove('cancelled', 'active')).toBe(false);
  });

  it('lets a retrying charge settle or fail, and frees the cycle only when cancelled or failed', () => {
    expect(canChargeMove('scheduled', 'retrying')).toBe(true);
    expect(canChargeMove('retrying', 'paid')).toBe(true);
    expect(canChargeMove('paid', 'failed')).toBe(false);
    expect(['pending', 'scheduled', 'retrying', 'paid', 'expired'].every((s) => chargeHoldsCycle(s as never))).toBe(true);
    expect(canChargeMove('pending', 'scheduled') && canChargeMove('pending', 'paid')).toBe(true);
    expect(chargeHoldsCycle('cancelled') || chargeHoldsCycle('failed')).toBe(false);
  });
});

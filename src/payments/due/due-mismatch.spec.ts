import type { DueTerms } from '../../domain/due-charge';
import { dueMismatch } from './due-mismatch';

// Due Thursday 2026-12-10 with a 2% fine; 2026-12-11 (Friday) is a day late, noon in Brasília is 15:00 UTC.
const due: DueTerms = { date: '2026-12-10', daysAfterDue: 30, fine: { type: 'percent', value: 200 }, interest: null, discount: null, abatement: null };
const payment = { due, amountCents: 10_000 };

describe('dueMismatch', () => {
  it('is none when the payer paid what was due that day, to the centavo', () => {
    expect(dueMismatch(payment, 10_000, new Date('2026-12-10T15:00:00Z'))).toBeNull();
    expect(dueMismatch(payment, 10_201, new Date('2026-12-11T15:00:00Z'))).toBeNull();
  });

  it('names the amount paid, the amount due and the day when they differ by more than a centavo', () => {
    expect(dueMismatch(payment, 10_000, new Date('2026-12-11T15:00:00Z'))).toEqual({
      paidCents: 10_000,
      dueCents: 10_200,
      on: '2026-12-11',
      note: 'Paid 100.00 on 2026-12-11, when 102.00 was due; recorded as paid (the money has moved).',
    });
  });

  it('judges the day in Brasília: 01:00 UTC on the 11th is still the 10th there', () => {
    expect(dueMismatch(payment, 10_000, new Date('2026-12-11T01:00:00Z'))).toBeNull();
  });

  it('is none for an immediate charge or an unknown amount', () => {
    expect(dueMismatch({ due: null, amountCents: 10_000 }, 1, new Date())).toBeNull();
    expect(dueMismatch(payment, null, new Date())).toBeNull();
  });
});

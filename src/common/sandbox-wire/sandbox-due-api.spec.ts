import type { DueTerms } from '../../domain/due-charge';
import { dueTermsFromWire, dueTermsToWire } from './sandbox-due-api';

describe('sandbox due-date terms on the wire', () => {
  const base: DueTerms = { date: '2026-03-10', daysAfterDue: 30, fine: null, interest: null, discount: null, abatement: null };

  it.each<[string, DueTerms]>([
    ['no fees', base],
    [
      'every term, discount by fixed dates',
      {
        ...base,
        fine: { type: 'fixed', value: 2_50 },
        interest: { type: 'percent_per_month', days: 'business', value: 1_00 },
        discount: {
          type: 'percent_until',
          until: [
            { date: '2026-03-01', value: 10_00 },
            { date: '2026-03-05', value: 5_00 },
          ],
        },
        abatement: { type: 'percent', value: 3 },
      },
    ],
    ['discount per day early', { ...base, discount: { type: 'amount_per_day_early', days: 'calendar', value: 15 } }],
  ])('writes values as two-place decimals and reads them back alike: %s', (_name, terms) => {
    const wire = dueTermsToWire(terms);
    expect(dueTermsFromWire(JSON.parse(JSON.stringify(wire)) as typeof wire)).toEqual(terms);
  });

  it('writes hundredths as reais or percents with two places', () => {
    expect(dueTermsToWire({ ...base, fine: { type: 'fixed', value: 2_50 }, abatement: { type: 'percent', value: 3 } })).toMatchObject({
      fine: { type: 'fixed', value: '2.50' },
      abatement: { type: 'percent', value: '0.03' },
    });
  });

  it('tells the two kinds of discount apart by their type, not by a stray member', () => {
    const wire = { ...dueTermsToWire(base), discount: { type: 'amount_per_day_early' as const, days: 'calendar' as const, value: '0.15', until: [] } };
    expect(dueTermsFromWire(wire).discount).toEqual({ type: 'amount_per_day_early', days: 'calendar', value: 15 });
  });
});

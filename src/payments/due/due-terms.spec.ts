import { AppError } from '../../common/errors/app-error';
import { dueShownOf, dueTermsOf, payerAddressOf } from './due-terms';
import type { DueDto } from './due.dto';

const TODAY = '2026-12-01';
const terms = (due: Partial<DueDto>, amountCents = 10_000) => dueTermsOf({ date: '2026-12-10', ...due }, amountCents, TODAY);
const fieldsOf = (make: () => unknown): string[] => {
  try {
    make();
  } catch (error) {
    return ((error as AppError).details as { fields: { field: string }[] }).fields.map((problem) => problem.field);
  }
  throw new Error('expected a validation error');
};

describe('dueTermsOf', () => {
  it('turns decimal reais and percents into hundredths, with the defaults filled in', () => {
    expect(
      terms({
        fine: { type: 'percent', value: 2 },
        interest: { type: 'percent_per_month', value: 1.5 },
        discount: { type: 'fixed_until', until: [{ date: '2026-12-05', value: 12.34 }] },
        abatement: { type: 'fixed', value: 0.5 },
      }),
    ).toEqual({
      date: '2026-12-10',
      daysAfterDue: 30,
      fine: { type: 'percent', value: 200 },
      interest: { type: 'percent_per_month', days: 'calendar', value: 150 },
      discount: { type: 'fixed_until', until: [{ date: '2026-12-05', value: 1234 }] },
      abatement: { type: 'fixed', value: 50 },
    });
  });

  it('shows the terms back as they were asked for', () => {
    const asked = { date: '2026-12-10', daysAfterDue: 5, discount: { type: 'percent_per_day_early' as const, days: 'business' as const, value: 0.1 } };
    expect(dueShownOf(terms(asked))).toEqual({ ...asked, fine: null, interest: null, abatement: null });
  });

  it("names each member a discount's type does not take, or lacks", () => {
    expect(fieldsOf(() => terms({ discount: { type: 'fixed_until', value: 1 } }))).toEqual(['due.discount.until', 'due.discount.value']);
    expect(fieldsOf(() => terms({ discount: { type: 'amount_per_day_early', until: [{ date: '2026-12-05', value: 1 }] } }))).toEqual(['due.discount.until', 'due.discount.value']);
  });

  it("refuses a due date before today in Brasília, and a discount date after the due date, with the batch item's prefix", () => {
    expect(fieldsOf(() => dueTermsOf({ date: '2026-11-30' }, 100, TODAY, 'payments.3.'))).toEqual(['payments.3.due.date']);
    expect(fieldsOf(() => terms({ discount: { type: 'fixed_until', until: [{ date: '2026-12-11', value: 1 }] } }))).toEqual(['due.discount.until.0.date']);
  });

  it("keeps a CEP's 8 digits", () => {
    expect(payerAddressOf({ street: 'Rua A, 1', city: 'Recife', state: 'PE', zip: '50050-000' }).zip).toBe('50050000');
  });
});

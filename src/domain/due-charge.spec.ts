import {
  amountDueCents,
  type BusinessCalendar,
  type DiscountTerms,
  type DueTerms,
  dueTermsProblems,
  effectiveDueDate,
  type InterestTerms,
  isPastLastPayableDate,
  lastPayableDate,
} from './due-charge';

/*
 * Worked examples are the Central Bank's (its Pix API document and its answers on the API's tracker,
 * cited per test); the rules they pin are listed above amountDueCents in due-charge.ts.
 */

// Weekends and these days are not business days: the BCB examples' Christmas and New Year 2020, and
// Tiradentes, Christmas and Carnival (a bank holiday, src/common/calendar/brazil-calendar.ts) nearby.
const HOLIDAYS = new Set(['2020-12-25', '2021-01-01', '2026-04-21', '2026-12-25', '2027-02-08', '2027-02-09']);
const calendar: BusinessCalendar = {
  isBusinessDay: (date) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay()) && !HOLIDAYS.has(date),
};

/** Terms due Monday 2026-04-20, the day before Tiradentes, with nothing else unless given. */
const terms = (over: Partial<DueTerms> = {}): DueTerms => ({ date: '2026-04-20', daysAfterDue: 30, fine: null, interest: null, discount: null, abatement: null, ...over });
const owed = (originalCents: number, over: Partial<DueTerms>, payDate: string) => amountDueCents(originalCents, terms(over), payDate, calendar);
const interest = (type: InterestTerms['type'], days: InterestTerms['days'], value: number): Partial<DueTerms> => ({ interest: { type, days, value } });
const discount = (value: DiscountTerms): Partial<DueTerms> => ({ discount: value });

describe('amountDueCents: the BCB’s worked examples', () => {
  it('1% a month in calendar days on R$ 30,000, one day late, is R$ 10.00, the rate not truncated (https://github.com/bacen/pix-api/issues/607)', () => {
    expect(owed(3_000_000, { date: '2024-09-04', ...interest('percent_per_month', 'calendar', 100) }, '2024-09-05')).toBe(3_001_000);
  });

  it('due on a Saturday, R$ 0.10 a day: R$ 10.00 on Monday, R$ 10.10 on Tuesday (https://github.com/bacen/pix-api/issues/347)', () => {
    const saturday = { date: '2021-02-27', ...interest('amount_per_day', 'calendar', 10) };
    expect(['2021-02-28', '2021-03-01', '2021-03-02'].map((day) => owed(1000, saturday, day))).toEqual([1000, 1000, 1010]);
  });

  it('interest starts on the first business day after the due date and counts the weekend (https://github.com/bacen/pix-api/issues/167, #205)', () => {
    const friday = { date: '2020-11-27', ...interest('amount_per_day', 'calendar', 100) };
    expect(['2020-11-27', '2020-11-28', '2020-11-30'].map((day) => owed(10_000, friday, day))).toEqual([10_000, 10_000, 10_300]);
    const saturday = { ...friday, date: '2020-11-28' };
    expect(['2020-11-29', '2020-11-30', '2020-12-01'].map((day) => owed(10_000, saturday, day))).toEqual([10_000, 10_000, 10_100]);
  });

  it('rounds each part to the centavo half up: a 0.05% abatement of R$ 10.00 is R$ 0.01 (https://github.com/bacen/pix-api/issues/404)', () => {
    expect(owed(1000, { abatement: { type: 'percent', value: 5 } }, '2026-04-20')).toBe(999);
  });
});

describe('amountDueCents: every modality', () => {
  it('fines once, fixed or a percent of the original less the abatement, from the first business day late', () => {
    const fined = (type: 'fixed' | 'percent') => ({ fine: { type, value: 200 }, abatement: { type: 'fixed' as const, value: 1000 } });
    // 2026-04-21 is Tiradentes: still not late; the fine comes on Wednesday and stays the same.
    expect(['2026-04-20', '2026-04-21', '2026-04-22', '2026-06-30'].map((day) => owed(10_000, fined('percent'), day))).toEqual([9000, 9000, 9180, 9180]);
    expect(owed(10_000, fined('fixed'), '2026-04-22')).toBe(9200);
  });

  it.each([
    ['amount_per_day', 100, 100],
    ['percent_per_day', 10, 10],
    ['percent_per_month', 300, 210],
    ['percent_per_year', 3650, 2520],
  ] as const)('%s charges calendar days (modalidades 1–4) or business days (5–8) late: n = 1, 30/21 or 365/252', (type, calendarValue, businessValue) => {
    // R$ 1,000 at 0.1% a day either way; Wednesday is 2 calendar days but 1 business day after Monday.
    expect(owed(100_000, interest(type, 'calendar', calendarValue), '2026-04-22')).toBe(100_200);
    expect(owed(100_000, interest(type, 'business', businessValue), '2026-04-22')).toBe(100_100);
  });

  it('takes the fixed-date discount whose date is the next not past, by value or percent', () => {
    const until = [
      { date: '2026-04-10', value: 3000 },
      { date: '2026-04-15', value: 2000 },
      { date: '2026-04-20', value: 1000 },
    ];
    const days = ['2026-04-10', '2026-04-11', '2026-04-15', '2026-04-16', '2026-04-20', '2026-04-22'];
    expect(days.map((day) => owed(10_000, discount({ type: 'fixed_until', until }), day))).toEqual([7000, 8000, 8000, 9000, 9000, 10_000]);
    const percent = { ...discount({ type: 'percent_until', until: [{ date: '2026-04-15', value: 1000 }] }), abatement: { type: 'fixed' as const, value: 1000 } };
    expect(['2026-04-15', '2026-04-16'].map((day) => owed(10_000, percent, day))).toEqual([8100, 9000]);
  });

  it('moves a discount dated on the due date with it when the due date is a Saturday', () => {
    const saturday = { date: '2026-04-18', ...discount({ type: 'fixed_until', until: [{ date: '2026-04-18', value: 500 }] }) };
    expect(effectiveDueDate(terms(saturday), calendar)).toBe('2026-04-20');
    expect(['2026-04-20', '2026-04-21'].map((day) => owed(10_000, saturday, day))).toEqual([9500, 10_000]);
  });

  it('moves any discount date on a weekend or holiday to the next business day (https://github.com/bacen/pix-api/issues/412)', () => {
    const saturday = discount({ type: 'fixed_until', until: [{ date: '2026-04-11', value: 3000 }] });
    expect(['2026-04-13', '2026-04-14'].map((day) => owed(10_000, saturday, day))).toEqual([7000, 10_000]);
    const tiradentes = { date: '2026-04-24', ...discount({ type: 'fixed_until', until: [{ date: '2026-04-21', value: 3000 }] }) };
    expect(['2026-04-22', '2026-04-23'].map((day) => owed(10_000, tiradentes, day))).toEqual([7000, 10_000]);
  });

  it('discounts each day paid early, calendar days (modalidades 3, 5) or business days (4, 6)', () => {
    // Due Wednesday 2026-04-22; paid Friday 17th: 5 calendar days early, 2 business days (Fri, Mon; Tue is Tiradentes).
    const early = (type: 'amount_per_day_early' | 'percent_per_day_early', days: 'calendar' | 'business') => ({ date: '2026-04-22', ...discount({ type, days, value: 100 }) });
    expect(owed(10_000, early('amount_per_day_early', 'calendar'), '2026-04-17')).toBe(9500);
    expect(owed(10_000, early('amount_per_day_early', 'business'), '2026-04-17')).toBe(9800);
    expect(owed(10_000, early('percent_per_day_early', 'calendar'), '2026-04-17')).toBe(9500);
    expect(owed(10_000, early('percent_per_day_early', 'business'), '2026-04-17')).toBe(9800);
    expect(owed(10_000, early('percent_per_day_early', 'calendar'), '2026-04-22')).toBe(10_000);
  });

  it('never asks for less than R$ 0.01', () => {
    const generous = { abatement: { type: 'fixed' as const, value: 600 }, ...discount({ type: 'fixed_until', until: [{ date: '2026-04-20', value: 500 }] }) };
    expect(owed(1000, generous, '2026-04-20')).toBe(1);
    expect(owed(1000, discount({ type: 'percent_per_day_early', days: 'calendar', value: 5000 }), '2026-03-20')).toBe(1);
  });
});

describe('amountDueCents: month ends and holidays', () => {
  it('counts January 31 to March 1 as 29 days, or 30 in a leap year (3% a month)', () => {
    const monthly = interest('percent_per_month', 'calendar', 300);
    expect(owed(100_000, { date: '2025-01-31', ...monthly }, '2025-03-01')).toBe(102_900);
    expect(owed(100_000, { date: '2028-01-31', ...monthly }, '2028-03-01')).toBe(103_000);
  });

  it('skips Christmas counting business days, and Christmas itself is not yet late', () => {
    const christmasEve = (days: 'calendar' | 'business') => ({ date: '2026-12-24', ...interest('percent_per_day', days, 10) });
    expect(owed(100_000, christmasEve('business'), '2026-12-25')).toBe(100_000);
    expect(owed(100_000, christmasEve('business'), '2026-12-28')).toBe(100_100);
    expect(owed(100_000, christmasEve('calendar'), '2026-12-28')).toBe(100_400);
  });

  it('treats Carnival Monday and Tuesday as non-business days', () => {
    const perDay = (days: 'calendar' | 'business') => ({ date: '2027-02-05', ...interest('amount_per_day', days, 100) });
    expect(owed(100_000, perDay('business'), '2027-02-10')).toBe(100_100);
    expect(owed(100_000, perDay('calendar'), '2027-02-10')).toBe(100_500);
    const carnivalMonday = { date: '2027-02-08', fine: { type: 'percent' as const, value: 200 } };
    expect(effectiveDueDate(terms(carnivalMonday), calendar)).toBe('2027-02-10');
    expect(owed(100_000, carnivalMonday, '2027-02-10')).toBe(100_000);
  });
});

describe('lastPayableDate', () => {
  // Examples A–G under `calendario.validadeAposVencimento`,
  // https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml
  it.each([
    ['A', '2020-10-20', 4, '2020-10-26'],
    ['B', '2020-12-25', 0, '2020-12-28'],
    ['C', '2020-12-25', 1, '2020-12-29'],
    ['D', '2020-12-25', 3, '2020-12-31'],
    ['E', '2020-12-25', 4, '2021-01-04'],
    ['F', '2021-08-27', 5, '2021-09-01'],
    ['G', '2021-08-28', 5, '2021-09-06'],
  ])('BCB example %s: due %s with %i days after is payable through %s', (_name, date, daysAfterDue, last) => {
    const due = terms({ date, daysAfterDue });
    expect(lastPayableDate(due, calendar)).toBe(last);
    expect(isPastLastPayableDate(due, last, calendar)).toBe(false);
    expect(isPastLastPayableDate(due, new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10), calendar)).toBe(true);
  });

  it('crosses month ends in calendar days: to February 29 in a leap year', () => {
    expect(lastPayableDate(terms({ date: '2028-01-31', daysAfterDue: 29 }), calendar)).toBe('2028-02-29');
    expect(lastPayableDate(terms({ date: '2027-01-29', daysAfterDue: 30 }), calendar)).toBe('2027-03-01');
  });
});

describe('dueTermsProblems', () => {
  const TODAY = '2026-04-01';
  const problems = (over: Partial<DueTerms>, amountCents = 10_000) => dueTermsProblems(terms(over), amountCents, TODAY);
  const fields = (over: Partial<DueTerms>, amountCents?: number) => problems(over, amountCents).map((problem) => problem.field);

  it('takes full terms that meet every rule', () => {
    const full: Partial<DueTerms> = {
      daysAfterDue: 3650,
      fine: { type: 'percent', value: 10_000 },
      interest: { type: 'percent_per_month', days: 'business', value: 100 },
      discount: {
        type: 'percent_until',
        until: [
          { date: '2026-04-10', value: 9999 },
          { date: '2026-04-20', value: 500 },
        ],
      },
      abatement: { type: 'fixed', value: 9999 },
    };
    expect(problems(full)).toEqual([]);
    expect(problems({ date: TODAY, daysAfterDue: 0 })).toEqual([]);
  });

  it('refuses a due date before today and days after due outside 0–3650', () => {
    expect(fields({ date: '2026-03-31' })).toEqual(['due.date']);
    expect([-1, 1.5, 3651].map((daysAfterDue) => fields({ daysAfterDue }))).toEqual([['due.daysAfterDue'], ['due.daysAfterDue'], ['due.daysAfterDue']]);
  });

  it('refuses discount dates after the due date, out of order, or more than 3', () => {
    const until = (...dates: string[]) => discount({ type: 'fixed_until', until: dates.map((date) => ({ date, value: 100 })) });
    expect(fields(until('2026-04-21'))).toEqual(['due.discount.until.0.date']);
    expect(fields(until('2026-04-10', '2026-04-10'))).toEqual(['due.discount.until.1.date']);
    expect(fields(until('2026-04-12', '2026-04-10'))).toEqual(['due.discount.until.1.date']);
    expect(fields(until('2026-04-05', '2026-04-06', '2026-04-07', '2026-04-08'))).toEqual(['due.discount.until']);
  });

  it('refuses a fine or interest over 100%, and a discount or abatement of 100% or of the whole amount', () => {
    expect(fields({ fine: { type: 'percent', value: 10_001 } })).toEqual(['due.fine.value']);
    expect(fields({ fine: { type: 'fixed', value: 20_000 } })).toEqual([]);
    expect(fields(interest('percent_per_day', 'calendar', 10_001))).toEqual(['due.interest.value']);
    expect(fields({ abatement: { type: 'percent', value: 10_000 } })).toEqual(['due.abatement.value']);
    expect(fields({ abatement: { type: 'fixed', value: 10_000 } })).toEqual(['due.abatement.value']);
    expect(fields(discount({ type: 'percent_until', until: [{ date: '2026-04-10', value: 10_000 }] }))).toEqual(['due.discount.until.0.value']);
    expect(fields(discount({ type: 'fixed_until', until: [{ date: '2026-04-10', value: 10_000 }] }))).toEqual(['due.discount.until.0.value']);
    expect(fields(discount({ type: 'amount_per_day_early', days: 'calendar', value: 10_000 }))).toEqual(['due.discount.value']);
  });

  it('names the field in each message', () => {
    const all = problems({ date: '2026-03-01', daysAfterDue: 4000, fine: { type: 'percent', value: 20_000 }, abatement: { type: 'fixed', value: 50_000 } });
    expect(all).toHaveLength(4);
    for (const problem of all) expect(problem.message).toContain(problem.field);
  });
});

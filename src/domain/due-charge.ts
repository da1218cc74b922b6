/**
 * Due-date charges (the Pix API's `cobv`; docs/due-charges.md): the terms a biller sets, and what a
 * payer owes on a given day under the Central Bank's rules. Pure: dates are calendar days in
 * Brasília (`YYYY-MM-DD`), and which days are business days is asked of a `BusinessCalendar` the
 * caller gives (the national holiday calendar lives outside the domain).
 *
 * Every value is an integer of hundredths: centavos for amounts, hundredths of a percent for
 * percents (2.5% is 250), as the API's decimal reais and percents have at most 2 decimal places.
 */
import { addDays, daysBetween } from './recurrence';

export const FINE_TYPES = ['fixed', 'percent'] as const;
export type FineType = (typeof FINE_TYPES)[number];

export const INTEREST_TYPES = ['amount_per_day', 'percent_per_day', 'percent_per_month', 'percent_per_year'] as const;
export type InterestType = (typeof INTEREST_TYPES)[number];

export const DAY_COUNTS = ['calendar', 'business'] as const;
export type DayCount = (typeof DAY_COUNTS)[number];

export const FIXED_DISCOUNT_TYPES = ['fixed_until', 'percent_until'] as const;
export const EARLY_DISCOUNT_TYPES = ['amount_per_day_early', 'percent_per_day_early'] as const;
export const DISCOUNT_TYPES = [...FIXED_DISCOUNT_TYPES, ...EARLY_DISCOUNT_TYPES] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const ABATEMENT_TYPES = ['fixed', 'percent'] as const;
export type AbatementType = (typeof ABATEMENT_TYPES)[number];

/** `valor.multa`: modalidade 1 (fixed amount) or 2 (percent of the original). */
export interface FineTerms {
  type: FineType;
  value: number;
}

/** `valor.juros`: modalidade 1–4 counting calendar days, 5–8 business days. */
export interface InterestTerms {
  type: InterestType;
  days: DayCount;
  value: number;
}

/** `valor.desconto` modalidade 1 / 2 with `descontoDataFixa`: up to 3 dates, each ≤ the due date. */
export interface FixedDateDiscount {
  type: (typeof FIXED_DISCOUNT_TYPES)[number];
  until: { date: string; value: number }[];
}

/** `valor.desconto` modalidade 3–6: a discount per day paid before the due date. */
export interface EarlyPaymentDiscount {
  type: (typeof EARLY_DISCOUNT_TYPES)[number];
  days: DayCount;
  value: number;
}

export type DiscountTerms = FixedDateDiscount | EarlyPaymentDiscount;

/** `valor.abatimento`: modalidade 1 (fixed amount) or 2 (percent of the original). */
export interface AbatementTerms {
  type: AbatementType;
  value: number;
}

/** What the biller set: the API's `due` with values in hundredths. */
export interface DueTerms {
  /** `calendario.dataDeVencimento`. */
  date: string;
  /** `calendario.validadeAposVencimento`: days after `date` it can still be paid. */
  daysAfterDue: number;
  fine: FineTerms | null;
  interest: InterestTerms | null;
  discount: DiscountTerms | null;
  abatement: AbatementTerms | null;
}

export const DEFAULT_DAYS_AFTER_DUE = 30;
export const MAX_DAYS_AFTER_DUE = 3650;
export const MAX_DISCOUNT_DATES = 3;

/** Which calendar days are business days (national holidays and weekends are not). */
export interface BusinessCalendar {
  isBusinessDay(date: string): boolean;
}

export function isFixedDateDiscount(discount: DiscountTerms): discount is FixedDateDiscount {
  return (FIXED_DISCOUNT_TYPES as readonly string[]).includes(discount.type);
}

// ---- What the payer owes on a day -----------------------------------------------------------------
//
// The Central Bank's rules, as its Pix API document and its answers on the API's tracker state them
// (the "Manual de Padrões para Iniciação do Pix" holds the equations; the tracker quotes them):
// - A due date on a weekend or holiday moves to the next business day, and every term that refers to
//   it (fine, interest, discount, validity) follows: `calendario.validadeAposVencimento` in
//   https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml; paying
//   on that next business day costs no interest (https://github.com/bacen/pix-api/issues/109).
// - Fine and interest start on the first business day after that adjusted due date
//   (https://github.com/bacen/pix-api/issues/167, https://github.com/bacen/pix-api/issues/297): paying on
//   the weekend right after a Friday due date is late for the discount but not yet fined.
// - Interest Vj = (Vo − Va) × ((Ij / 100) / n) × Dα: on the original less the abatement, simple, n = 1, 30
//   or 365 calendar days (https://github.com/bacen/pix-api/issues/607 quotes the equation with n = 30)
//   or 1, 21 or 252 business days (https://github.com/bacen/pix-api/issues/205); Dα counts the days late
//   from the adjusted due date as the modality says. A month of 30 days is also what PSPs show
//   (https://developers.woovi.com/docs/charge/cobv-simulator: 1%/month ≈ 0.033%/day).
// - The fine is flat, once, from the first day interest would run (k = Dα / max(1, Dα),
//   https://github.com/bacen/pix-api/issues/297), a percent of the original less the abatement.
// - The abatement's percent is of the original (`valor.abatimento.valorPerc` in the document above);
//   the discounts' percents, like the interest's, are of the original less the abatement.
// - Each of fine, interest, discount and abatement is worked out exactly and rounded once to the
//   centavo, half up (0.005 → 0.01, https://github.com/bacen/pix-api/issues/404); rates are never
//   rounded on the way (https://github.com/bacen/pix-api/issues/607 shows a truncated daily factor
//   costing 9 centavos on R$ 30,000).

/** The least a due-date charge asks for: a Pix moves at least one centavo. */
export const MIN_AMOUNT_DUE_CENTS = 1;

/** 100.00% in hundredths of a percent. */
const WHOLE_PERCENT = 100_00;

/** Days in the period of a percent-per-day / month / year rate, counting calendar or business days. */
const PERIOD_DAYS: Readonly<Record<DayCount, Readonly<Record<Exclude<InterestType, 'amount_per_day'>, number>>>> = {
  calendar: { percent_per_day: 1, percent_per_month: 30, percent_per_year: 365 },
  business: { percent_per_day: 1, percent_per_month: 21, percent_per_year: 252 },
};

/** The first business day on or after `date`. */
export function nextBusinessDay(date: string, calendar: BusinessCalendar): string {
  let day = date;
  while (!calendar.isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/** The day a payer can pay on without fine or interest: the due date, moved past weekends and holidays. */
export function effectiveDueDate(terms: Pick<DueTerms, 'date'>, calendar: BusinessCalendar): string {
  return nextBusinessDay(terms.date, calendar);
}

/** Business days d with from < d ≤ to (0 when `to` is not after `from`). */
function businessDaysAfter(from: string, to: string, calendar: BusinessCalendar): number {
  let count = 0;
  for (let day = addDays(from, 1); day <= to; day = addDays(day, 1)) if (calendar.isBusinessDay(day)) count += 1;
  return count;
}

/** `numerator / denominator` rounded half up, for non-negative values. */
function roundHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** `percent` hundredths of a percent of `cents` × `times`, to the centavo. */
function percentOf(cents: number, percent: number, times = 1, per = 1): number {
  if (cents <= 0) return 0;
  return roundHalfUp(BigInt(cents) * BigInt(percent) * BigInt(times), BigInt(WHOLE_PERCENT) * BigInt(per));
}

function abatementCents(originalCents: number, abatement: AbatementTerms | null): number {
  if (!abatement) return 0;
  return abatement.type === 'fixed' ? abatement.value : percentOf(originalCents, abatement.value);
}

/** The discount for paying on `payDate`, on or before the effective due date `due`. */
function discountCents(baseCents: number, discount: DiscountTerms | null, terms: DueTerms, payDate: string, due: string, calendar: BusinessCalendar): number {
  if (!discount) return 0;
  if (isFixedDateDiscount(discount)) {
    // The earliest date not yet past applies. A date on a weekend or holiday moves to the next
    // business day, as the due date does (the BCB's manual, quoted in https://github.com/bacen/pix-api/issues/412).
    const entry = [...discount.until]
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
      .find((candidate) => payDate <= (candidate.date === terms.date ? due : nextBusinessDay(candidate.date, calendar)));
    if (!entry) return 0;
    return discount.type === 'fixed_until' ? entry.value : percentOf(baseCents, entry.value);
  }
  // Days of anticipation: calendar days before `due`, or the business days from `payDate` up to it.
  const days = discount.days === 'calendar' ? daysBetween(payDate, due) : businessDaysAfter(addDays(payDate, -1), addDays(due, -1), calendar);
  if (days <= 0) return 0;
  return discount.type === 'amount_per_day_early' ? discount.value * days : percentOf(baseCents, discount.value, days);
}

function interestCents(baseCents: number, interest: InterestTerms | null, due: string, payDate: string, calendar: BusinessCalendar): number {
  if (!interest) return 0;
  const daysLate = interest.days === 'calendar' ? daysBetween(due, payDate) : businessDaysAfter(due, payDate, calendar);
  if (interest.type === 'amount_per_day') return interest.value * daysLate;
  return percentOf(baseCents, interest.value, daysLate, PERIOD_DAYS[interest.days][interest.type]);
}

function fineCents(baseCents: number, fine: FineTerms | null): number {
  if (!fine) return 0;
  return fine.type === 'fixed' ? fine.value : percentOf(baseCents, fine.value);
}

/**
 * What the payer owes, in centavos, paying on `payDate` (a calendar day in Brasília) a charge of
 * `originalCents` on `terms`: on or before the effective due date, the original less the abatement
 * and the discount that applies; from the first business day after it, the original less the
 * abatement plus the fine and the interest for the days late; never below one centavo.
 */
export function amountDueCents(originalCents: number, terms: DueTerms, payDate: string, calendar: BusinessCalendar): number {
  const base = originalCents - abatementCents(originalCents, terms.abatement);
  const due = effectiveDueDate(terms, calendar);
  let owed: number;
  if (payDate <= due) owed = base - discountCents(base, terms.discount, terms, payDate, due, calendar);
  else if (payDate < nextBusinessDay(addDays(due, 1), calendar)) owed = base;
  else owed = base + fineCents(base, terms.fine) + interestCents(base, terms.interest, due, payDate, calendar);
  return Math.max(MIN_AMOUNT_DUE_CENTS, owed);
}

// ---- How long it can be paid -----------------------------------------------------------------------

/**
 * The last day the charge can be paid: `daysAfterDue` calendar days after the effective due date,
 * moved to the next business day when it is not one. The API document's examples A–G under
 * `calendario.validadeAposVencimento`
 * (https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml): due
 * Friday 2020-12-25 (Christmas) with 1 day after is payable through Tuesday 2020-12-29; due Tuesday
 * 2020-10-20 with 4, through Monday 2020-10-26. (The same document's `DPP` error example, 2020-12-25
 * with 10 refusing 2021-01-05, counts from the unadjusted date; the field's own examples are the
 * later, detailed statement, https://github.com/bacen/pix-api/issues/307.)
 */
export function lastPayableDate(terms: Pick<DueTerms, 'date' | 'daysAfterDue'>, calendar: BusinessCalendar): string {
  return nextBusinessDay(addDays(effectiveDueDate(terms, calendar), terms.daysAfterDue), calendar);
}

/** Whether `today` (Brasília) is after the last day the charge can be paid. */
export function isPastLastPayableDate(terms: DueTerms, today: string, calendar: BusinessCalendar): boolean {
  return today > lastPayableDate(terms, calendar);
}

// ---- Terms a create or change can take ---------------------------------------------------------------

export interface DueTermsProblem {
  field: string;
  message: string;
}

/**
 * The rules between fields that a create or change of `terms` for a charge of `amountCents` must
 * meet on `today` (Brasília), with the API's field paths; empty when it may go to the PSP. The
 * shapes (types, decimals, signs) are checked before. The PSP refuses an abatement or a discount
 * of 100% or more, or of at least the original, and a discount date after the due date (the `cobv`
 * violations in https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml);
 * a fine or interest over 100% is refused here as no biller means it.
 */
export function dueTermsProblems(terms: DueTerms, amountCents: number, today: string): DueTermsProblem[] {
  const problems: DueTermsProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  if (terms.date < today) add('due.date', `due.date must be today (${today} in Brasília) or later.`);
  if (!Number.isInteger(terms.daysAfterDue) || terms.daysAfterDue < 0 || terms.daysAfterDue > MAX_DAYS_AFTER_DUE) {
    add('due.daysAfterDue', `due.daysAfterDue must be a whole number of days from 0 to ${MAX_DAYS_AFTER_DUE}.`);
  }
  if (terms.fine?.type === 'percent' && terms.fine.value > WHOLE_PERCENT) add('due.fine.value', 'due.fine.value must be a percent of at most 100.');
  if (terms.interest && terms.interest.type !== 'amount_per_day' && terms.interest.value > WHOLE_PERCENT) {
    add('due.interest.value', 'due.interest.value must be a percent of at most 100.');
  }
  const lessThanWhole = (field: string, isPercent: boolean, value: number) => {
    if (isPercent && value >= WHOLE_PERCENT) add(field, `${field} must be a percent below 100.`);
    if (!isPercent && value >= amountCents) add(field, `${field} must be less than the amount.`);
  };
  if (terms.abatement) lessThanWhole('due.abatement.value', terms.abatement.type === 'percent', terms.abatement.value);
  const discount = terms.discount;
  if (discount && isFixedDateDiscount(discount)) {
    if (discount.until.length === 0) add('due.discount.until', 'due.discount.until must hold at least one date.');
    if (discount.until.length > MAX_DISCOUNT_DATES) add('due.discount.until', `due.discount.until can hold at most ${MAX_DISCOUNT_DATES} dates.`);
    discount.until.forEach((entry, i) => {
      const field = `due.discount.until.${i}`;
      if (entry.date > terms.date) add(`${field}.date`, `${field}.date must be on or before due.date.`);
      const previous = discount.until[i - 1];
      if (previous && entry.date <= previous.date) add(`${field}.date`, `${field}.date must be later than due.discount.until.${i - 1}.date.`);
      lessThanWhole(`${field}.value`, discount.type === 'percent_until', entry.value);
    });
  } else if (discount) {
    lessThanWhole('due.discount.value', discount.type === 'percent_per_day_early', discount.value);
  }
  return problems;
}

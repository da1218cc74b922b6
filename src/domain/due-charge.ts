/**
 * Due-date charges (the Pix API's `cobv`; docs/due-charges.md): the terms a biller sets, and what a
 * payer owes on a given day under the Central Bank's rules. Pure: dates are calendar days in
 * Brasília (`YYYY-MM-DD`), and which days are business days is asked of a `BusinessCalendar` the
 * caller gives (the national holiday calendar lives outside the domain).
 *
 * Every value is an integer of hundredths: centavos for amounts, hundredths of a percent for
 * percents (2.5% is 250), as the API's decimal reais and percents have at most 2 decimal places.
 */

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

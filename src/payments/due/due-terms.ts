import { AppError, type FieldError } from '../../common/errors/app-error';
import { centsToReais, reaisToCents } from '../../domain/money';
import {
  DEFAULT_DAYS_AFTER_DUE,
  type DiscountTerms,
  type DueTerms,
  EARLY_DISCOUNT_TYPES,
  FIXED_DISCOUNT_TYPES,
  dueTermsProblems,
  isFixedDateDiscount,
} from '../../domain/due-charge';
import type { PayerAddress } from '../../providers/provider-adapter';
import type { DueDiscountDto, DueDto, RecipientAddressDto } from './due.dto';

/*
 * The API's `due` (decimal reais and percents) and the domain's DueTerms (integer hundredths), both
 * ways. The DTO's decorators have checked each value's shape; what is checked here needs more than
 * one member: which members a discount type takes, and the domain's rules between dates and amounts.
 */

/** Hundredths of a value the DTO already checked (> 0, at most 2 decimal places). */
const hundredths = (value: number): number => reaisToCents(value)!;

/**
 * A create's due-date terms and payer's address, checked against `today` (Brasília's); a 400
 * naming the fields otherwise. A payer's address goes only with a due-date charge.
 */
export function dueChargeOf(
  dto: { due?: DueDto; recipientAddress?: RecipientAddressDto },
  amountCents: number,
  today: string,
): { due: DueTerms | null; payerAddress: PayerAddress | null } {
  if (!dto.due) {
    if (dto.recipientAddress) throw AppError.validation([{ field: 'recipientAddress', message: 'recipientAddress is only for a due-date charge (with due)' }]);
    return { due: null, payerAddress: null };
  }
  return { due: dueTermsOf(dto.due, amountCents, today), payerAddress: dto.recipientAddress ? payerAddressOf(dto.recipientAddress) : null };
}

/** The terms of a create's `due`, or a 400 naming every field that is wrong. `today` is Brasília's. */
export function dueTermsOf(due: DueDto, amountCents: number, today: string, prefix = ''): DueTerms {
  const problems: FieldError[] = [];
  const discount = due.discount ? discountOf(due.discount, problems) : null;
  const terms: DueTerms = {
    date: due.date,
    daysAfterDue: due.daysAfterDue ?? DEFAULT_DAYS_AFTER_DUE,
    fine: due.fine ? { type: due.fine.type, value: hundredths(due.fine.value) } : null,
    interest: due.interest ? { type: due.interest.type, days: due.interest.days ?? 'calendar', value: hundredths(due.interest.value) } : null,
    discount,
    abatement: due.abatement ? { type: due.abatement.type, value: hundredths(due.abatement.value) } : null,
  };
  if (problems.length === 0) problems.push(...dueTermsProblems(terms, amountCents, today));
  if (problems.length > 0) throw AppError.validation(problems.map((problem) => ({ ...problem, field: `${prefix}${problem.field}` })));
  return terms;
}

function discountOf(dto: DueDiscountDto, problems: FieldError[]): DiscountTerms | null {
  if ((FIXED_DISCOUNT_TYPES as readonly string[]).includes(dto.type)) {
    if (!dto.until) problems.push({ field: 'due.discount.until', message: `due.discount.until is required for type "${dto.type}"` });
    if (dto.days !== undefined) problems.push({ field: 'due.discount.days', message: `due.discount.days is only for the per-day types (${EARLY_DISCOUNT_TYPES.join(', ')})` });
    if (dto.value !== undefined) problems.push({ field: 'due.discount.value', message: `type "${dto.type}" takes its values in due.discount.until` });
    if (!dto.until) return null;
    return {
      type: dto.type as DiscountTerms['type'] & (typeof FIXED_DISCOUNT_TYPES)[number],
      until: dto.until.map((entry) => ({ date: entry.date, value: hundredths(entry.value) })),
    };
  }
  if (dto.until !== undefined) problems.push({ field: 'due.discount.until', message: `due.discount.until is only for ${FIXED_DISCOUNT_TYPES.join(' and ')}` });
  if (dto.value === undefined) {
    problems.push({ field: 'due.discount.value', message: `due.discount.value is required for type "${dto.type}"` });
    return null;
  }
  return { type: dto.type as (typeof EARLY_DISCOUNT_TYPES)[number], days: dto.days ?? 'calendar', value: hundredths(dto.value) };
}

/** The payer's address as the PSPs take it: the CEP's 8 digits. */
export function payerAddressOf(dto: RecipientAddressDto): PayerAddress {
  return { street: dto.street, city: dto.city, state: dto.state, zip: dto.zip.replace('-', '') };
}

/** `due` as the API shows it: what was asked for, with the defaults filled in. */
export interface DueShown {
  date: string;
  daysAfterDue: number;
  fine: { type: string; value: number } | null;
  interest: { type: string; days: string; value: number } | null;
  discount: { type: string; until: { date: string; value: number }[] } | { type: string; days: string; value: number } | null;
  abatement: { type: string; value: number } | null;
}

export function dueShownOf(terms: DueTerms): DueShown {
  const decimal = centsToReais;
  return {
    date: terms.date,
    daysAfterDue: terms.daysAfterDue,
    fine: terms.fine ? { type: terms.fine.type, value: decimal(terms.fine.value) } : null,
    interest: terms.interest ? { type: terms.interest.type, days: terms.interest.days, value: decimal(terms.interest.value) } : null,
    discount: terms.discount
      ? isFixedDateDiscount(terms.discount)
        ? { type: terms.discount.type, until: terms.discount.until.map((entry) => ({ date: entry.date, value: decimal(entry.value) })) }
        : { type: terms.discount.type, days: terms.discount.days, value: decimal(terms.discount.value) }
      : null,
    abatement: terms.abatement ? { type: terms.abatement.type, value: decimal(terms.abatement.value) } : null,
  };
}

import { isEmail } from 'class-validator';
import type { FieldError } from '../common/errors/app-error';
import { isValidCpfOrCnpj, normaliseDocument } from '../common/validation/brazilian-document';
import { centsToDecimalString, reaisToCents } from '../domain/money';

/**
 * The rules of payment links that need no database (docs/api.md, Payment links): what state a link
 * is in, what its terms may be, what a payer's form must hold, and how long an opener waits.
 */

/** What a link's page shows: open to pay, or why not. */
export const PAYMENT_LINK_STATES = ['open', 'inactive', 'expired', 'used_up'] as const;
export type PaymentLinkState = (typeof PAYMENT_LINK_STATES)[number];

/** One address may hold at most this many pending payments of one link opened within OPEN_WINDOW_MS. */
export const MAX_OPENS_PER_ADDRESS = 10;
export const OPEN_WINDOW_MS = 60 * 60 * 1000;
/**
 * How long an open whose payment is not written yet (the PSP still being asked) holds its place.
 * A create tries each of the merchant's accounts within its upstream timeout, far less than this;
 * an open left behind by a process that died gives its place back once this has passed.
 */
export const OPEN_HOLD_MS = 10 * 60 * 1000;
export const MAX_PAYMENTS_LIMIT = 100_000;

/** A link's payments, counted from `payments.payment_link_id`, and its opens whose payment is still being made. */
export interface PaymentLinkCounts {
  /** Every payment opened from it, whatever its status. */
  payments: number;
  /** Those ever paid (`paidAt` set: paid, then perhaps refunded). */
  paid: number;
  /** Those still pending. */
  pending: number;
  /** Opens within OPEN_HOLD_MS whose payment is not written yet. */
  opening: number;
}

/**
 * Used up: the paid payments, the pending ones and the ones being made fill `maxPayments`. A
 * pending payment holds its place until it expires or is cancelled, so the last place is never
 * sold twice; a place a payment gave back opens the link again.
 */
export function isUsedUp(maxPayments: number | null, counts: PaymentLinkCounts): boolean {
  return maxPayments !== null && counts.paid + counts.pending + counts.opening >= maxPayments;
}

/** Deactivated (or its merchant is), then expired, then used up; otherwise open. */
export function linkState(
  link: { active: boolean; expiresAt: Date | null; maxPayments: number | null },
  counts: PaymentLinkCounts,
  merchantActive: boolean,
  now: Date,
): PaymentLinkState {
  if (!link.active || !merchantActive) return 'inactive';
  if (link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (isUsedUp(link.maxPayments, counts)) return 'used_up';
  return 'open';
}

/** A link's amount, as stored: fixed, or a range the payer chooses within. */
export type LinkAmount = { amountCents: number; minAmountCents: null; maxAmountCents: null } | { amountCents: null; minAmountCents: number; maxAmountCents: number };

/** What a create asks of a link's terms beyond each field's shape (the DTO's): judged once the key is claimed. */
export interface LinkTermsAsked {
  amount?: number;
  amountRange?: { min: number; max: number };
  expiresAt?: string;
}

/**
 * A create's amount and expiry: exactly one of `amount` and `amountRange`, every amount within the
 * gateway's maximum, `min` below `max`, an expiry in the future. Answers the problems, each naming
 * its field, or the terms to store.
 */
export function linkTermsOf(asked: LinkTermsAsked, maxAmountCents: number, now: Date): { problems: FieldError[] } | { amount: LinkAmount; expiresAt: Date | null } {
  const problems: FieldError[] = [];
  const cents = (value: number, field: string): number => {
    const converted = reaisToCents(value) ?? 0;
    if (converted > maxAmountCents) problems.push({ field, message: `${field} must be at most ${centsToDecimalString(maxAmountCents)}` });
    return converted;
  };
  let amount: LinkAmount | null = null;
  if ((asked.amount === undefined) === (asked.amountRange === undefined)) {
    problems.push({ field: 'amount', message: 'give exactly one of amount (a fixed amount) and amountRange (the payer chooses)' });
  } else if (asked.amount !== undefined) {
    amount = { amountCents: cents(asked.amount, 'amount'), minAmountCents: null, maxAmountCents: null };
  } else {
    const min = cents(asked.amountRange!.min, 'amountRange.min');
    const max = cents(asked.amountRange!.max, 'amountRange.max');
    if (min >= max) problems.push({ field: 'amountRange.max', message: 'amountRange.max must be greater than amountRange.min' });
    amount = { amountCents: null, minAmountCents: min, maxAmountCents: max };
  }
  const expiresAt = asked.expiresAt === undefined ? null : new Date(asked.expiresAt);
  if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) problems.push({ field: 'expiresAt', message: 'expiresAt must be in the future' });
  if (problems.length > 0 || amount === null) return { problems };
  return { amount, expiresAt };
}

/** What a payer typed into a link's form, as the page received it (every field as text; `amount` only for a range). */
export interface PayerForm {
  name: string;
  document: string;
  email?: string;
  amount?: string | number;
}

/** A payer's form once checked: the name trimmed, the document as the payer wrote it (the payments core normalises it), the amount in centavos. */
export interface CheckedPayer {
  name: string;
  document: string;
  email: string | null;
  amountCents: number;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A payer's form against the link: name 1–140 characters, a CPF or CNPJ with its check digits, an
 * e-mail when the link collects one, and for a range an amount within it (a fixed link ignores
 * whatever amount is sent: a payer never sets the price). Every problem is named by its form field.
 */
export function checkPayerForm(
  link: { amountCents: number | null; minAmountCents: number | null; maxAmountCents: number | null; collectEmail: boolean },
  form: PayerForm,
): { fields: FieldError[] } | { payer: CheckedPayer } {
  const fields: FieldError[] = [];
  const name = typeof form.name === 'string' ? form.name.trim() : '';
  if (name.length < 1 || name.length > 140 || CONTROL.test(name)) fields.push({ field: 'name', message: 'name must be 1 to 140 characters' });
  const document = typeof form.document === 'string' ? form.document.trim() : '';
  if (!isValidCpfOrCnpj(document)) fields.push({ field: 'document', message: 'document must be a valid CPF or CNPJ' });
  let email: string | null = null;
  if (link.collectEmail) {
    email = typeof form.email === 'string' ? form.email.trim() : '';
    if (email.length > 254 || !isEmail(email)) fields.push({ field: 'email', message: 'email must be an e-mail address' });
  }
  let amountCents = link.amountCents ?? 0;
  if (link.amountCents === null) {
    const [min, max] = [link.minAmountCents ?? 0, link.maxAmountCents ?? 0];
    const typed = payerAmountCents(form.amount);
    if (typed === undefined) fields.push({ field: 'amount', message: 'amount must be an amount in reais, such as 25,90' });
    else if (typed < min || typed > max) fields.push({ field: 'amount', message: `amount must be between ${centsToDecimalString(min)} and ${centsToDecimalString(max)}` });
    else amountCents = typed;
  }
  if (fields.length > 0) return { fields };
  return { payer: { name, document: normaliseDocument(document), email, amountCents } };
}

/** pt-BR with a decimal comma and optional thousands dots (`1.234,56`, `25,9`), or a plain decimal point with at most two decimals (`25.90`). */
const PT_BR_AMOUNT = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/;
const POINT_AMOUNT = /^(\d+)\.(\d{1,2})$/;

/**
 * Centavos for an amount as a payer types it (`R$ 1.234,56`, `25,90`, `25.9`, `30`), or a JSON
 * number of reais; undefined for anything else, zero or below, or more than two decimals.
 */
export function payerAmountCents(typed: string | number | undefined): number | undefined {
  if (typeof typed === 'number') {
    const cents = reaisToCents(typed);
    return cents !== undefined && cents > 0 ? cents : undefined;
  }
  if (typeof typed !== 'string') return undefined;
  const text = typed.replace(/^\s*R\$\s*/i, '').trim();
  if (text.length > 20) return undefined;
  const point = POINT_AMOUNT.exec(text);
  const match = point ?? PT_BR_AMOUNT.exec(text);
  if (!match) return undefined;
  const cents = Number(match[1]!.replace(/\./g, '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) && cents > 0 ? cents : undefined;
}

/** Whole seconds until the oldest open an address holds leaves the hour: when it may open one more (at least 1). */
export function retryAfterSeconds(oldestHeldOpen: Date, now: Date): number {
  return Math.max(1, Math.ceil((oldestHeldOpen.getTime() + OPEN_WINDOW_MS - now.getTime()) / 1000));
}

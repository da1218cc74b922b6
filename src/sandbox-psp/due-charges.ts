import { amountDueCents, dueTermsProblems, type DueTerms, isPastLastPayableDate, lastPayableDate } from '../domain/due-charge';
import { addDays, brasiliaDate } from '../domain/recurrence';
import { BRAZIL_CALENDAR } from '../common/calendar/brazil-calendar';
import { SandboxHttpError } from './sandbox-errors';
import type { StoredCharge } from './stored';

/*
 * The simulated PSP's rules for due-date charges (docs/sandbox.md, Due-date charges): days are
 * calendar days in Brasília on the sandbox's clock, and how long a charge can be paid, what a payer
 * owes and which terms are taken are the gateway's own rules (src/domain/due-charge.ts) on Brazil's
 * national calendar, so the sandbox and the gateway never disagree about them.
 */

/** The last day the charge can be paid (the domain's rule: due date and days after it, moved past weekends and holidays). */
export function lastPayableDay(terms: DueTerms): string {
  return lastPayableDate(terms, BRAZIL_CALENDAR);
}

/**
 * When the charge stops being payable: the end (last millisecond) of its last payable day in Brasília,
 * as the gateway shows a due-date charge's expiry (docs/due-charges.md), found by asking the time zone
 * rather than assuming its offset. Expiry itself is decided on calendar days (refreshDueCharge); this is
 * what the wire shows as `expiresAt`.
 */
export function dueExpiry(terms: DueTerms): Date {
  const next = addDays(lastPayableDay(terms), 1);
  // Brasília is behind UTC: its day begins some whole hours after the UTC day of the same date.
  let at = Date.parse(`${next}T00:00:00.000Z`);
  while (brasiliaDate(new Date(at)) < next) at += HOUR_MS;
  return new Date(at - 1);
}

const HOUR_MS = 3_600_000;

/** What a payer owes paying on `day`; after the last payable day, what was owed on it (the charge can no longer be paid). */
export function owedOn(amountCents: number, terms: DueTerms, day: string): number {
  const last = lastPayableDay(terms);
  return amountDueCents(amountCents, terms, day > last ? last : day, BRAZIL_CALENDAR);
}

/**
 * A due-date charge as of `now`: an open one past its last payable day is expired, and what is owed
 * today is worked out again. Immediate charges are left alone (their expiry is the store's).
 */
export function refreshDueCharge(charge: StoredCharge, now: number): void {
  if (!charge.due) return;
  const today = brasiliaDate(new Date(now));
  if (charge.status === 'ATIVA' && isPastLastPayableDate(charge.due, today, BRAZIL_CALENDAR)) charge.status = 'EXPIRADA';
  charge.amountDueCents = owedOn(charge.amountCents, charge.due, today);
}

/**
 * Why terms for a charge of `amountCents` cannot be taken (400, naming the first field), or null: the
 * gateway's own rules (dueTermsProblems), with the due date checked against `earliest`: today for a
 * new charge, the day it was made for a change, as the BCB's Pix API refuses a `dataDeVencimento`
 * before the charge's creation
 * (https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml,
 * `PUT|PATCH /cobv/{txid}` violations). The shape (types, two places, 0–3,650 days, 1–3 discount
 * dates) is the schema's.
 */
export function dueTermsProblem(terms: DueTerms, amountCents: number, earliest: string, kind: 'create' | 'change'): SandboxHttpError | null {
  const [problem] = dueTermsProblems(terms, amountCents, earliest);
  if (!problem) return null;
  const message = problem.field === 'due.date' && kind === 'change' ? `due.date must not be before the day the charge was made (${earliest}).` : problem.message;
  return new SandboxHttpError(400, 'INVALID_REQUEST', message, problem.field);
}

import { ApiError } from '../api';
import { parseReais, toCents } from '../format';
import type { components } from '../api-types';
import { Field } from '../ui';

/**
 * The test payment form's due-date option (docs/due-charges.md): a due date, how long after it the
 * charge can still be paid, and the usual terms of a bill (a fine, interest a month, a discount for
 * paying early). The gateway checks the same rules and says which field it refuses.
 */

export type DueRequest = components['schemas']['DueDto'];

export interface DueValues {
  /** Whether the payment is a due-date charge at all. */
  on: boolean;
  date: string;
  daysAfterDue: string;
  finePercent: string;
  interestPercent: string;
  interestDays: 'calendar' | 'business';
  discount: string;
  discountUntil: string;
}

export type DueErrors = Partial<Record<'date' | 'daysAfterDue' | 'finePercent' | 'interestPercent' | 'discount' | 'discountUntil', string>>;

const BRASILIA = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** Today in Brasília (`YYYY-MM-DD`), the day the gateway judges a due date against. */
export function brasiliaToday(now = new Date()): string {
  return BRASILIA.format(now);
}

/** `day` moved by `days` calendar days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

export function emptyDue(today = brasiliaToday()): DueValues {
  return { on: false, date: addDays(today, 7), daysAfterDue: '30', finePercent: '', interestPercent: '', interestDays: 'calendar', discount: '', discountUntil: '' };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function percentProblem(text: string): string | undefined {
  if (!text.trim()) return undefined;
  const value = parseReais(text);
  if (value === undefined) return 'Enter a percent such as 2 or 2,5, with at most two decimals.';
  if (value <= 0 || value > 100) return 'Enter a percent above 0 and at most 100.';
  return undefined;
}

/** The due-date option's problems, for a charge of `amount` reais (undefined while the amount is not valid). */
export function checkDue(values: DueValues, amount: number | undefined, today = brasiliaToday()): DueErrors {
  if (!values.on) return {};
  const errors: DueErrors = {};
  if (!DAY.test(values.date)) errors.date = 'Choose the due date.';
  else if (values.date < today) errors.date = `Choose today (${today} in Brasília) or a later day.`;
  const days = Number(values.daysAfterDue);
  if (!/^\d+$/.test(values.daysAfterDue.trim()) || days > 3650) errors.daysAfterDue = 'Enter a whole number of days from 0 to 3650.';
  errors.finePercent = percentProblem(values.finePercent);
  errors.interestPercent = percentProblem(values.interestPercent);
  if (values.discount.trim()) {
    const discount = parseReais(values.discount);
    if (discount === undefined) errors.discount = 'Enter an amount in reais, such as 5,00, with at most two decimals.';
    else if (discount <= 0) errors.discount = 'Enter an amount greater than zero.';
    else if (amount !== undefined && toCents(discount) >= toCents(amount)) errors.discount = 'The discount must be less than the amount.';
    if (!DAY.test(values.discountUntil)) errors.discountUntil = 'Choose the last day the discount applies.';
    else if (values.discountUntil < today) errors.discountUntil = 'Choose today or a later day.';
    else if (DAY.test(values.date) && values.discountUntil > values.date) errors.discountUntil = 'Choose the due date or a day before it.';
  } else if (values.discountUntil) errors.discount = 'Enter the discount, or clear its date.';
  return errors;
}

/** `due` as the API takes it; undefined when the option is off. */
export function dueBody(values: DueValues): DueRequest | undefined {
  if (!values.on) return undefined;
  const percent = (text: string) => toCents(parseReais(text)!) / 100;
  return {
    date: values.date,
    daysAfterDue: Number(values.daysAfterDue),
    ...(values.finePercent.trim() ? { fine: { type: 'percent', value: percent(values.finePercent) } } : {}),
    ...(values.interestPercent.trim() ? { interest: { type: 'percent_per_month', days: values.interestDays, value: percent(values.interestPercent) } } : {}),
    ...(values.discount.trim() ? { discount: { type: 'fixed_until', until: [{ date: values.discountUntil, value: percent(values.discount) }] } } : {}),
  };
}

/** Which of these fields an API field problem (`due.fine.value`, `due.discount.until.0.date`) is about. */
function dueField(apiField: string): keyof DueErrors | undefined {
  if (apiField === 'due.date' || apiField === 'due') return 'date';
  if (apiField === 'due.daysAfterDue') return 'daysAfterDue';
  if (apiField.startsWith('due.fine')) return 'finePercent';
  if (apiField.startsWith('due.interest')) return 'interestPercent';
  if (/^due\.discount\.until\.\d+\.date$/.test(apiField)) return 'discountUntil';
  if (apiField.startsWith('due.discount')) return 'discount';
  return undefined;
}

/** The API's refusals of `due`, beside the fields they are about. */
export function dueApiErrors(error: unknown): DueErrors {
  if (!(error instanceof ApiError)) return {};
  const errors: DueErrors = {};
  for (const problem of error.fields) {
    const field = dueField(problem.field);
    if (field) errors[field] ??= problem.message;
  }
  return errors;
}

/** The due-date option: a checkbox, and the terms under it once ticked. */
export function DueFields({ values, errors, onChange }: { values: DueValues; errors: DueErrors; onChange: (values: DueValues) => void }) {
  const set = (name: Exclude<keyof DueValues, 'on'>) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange({ ...values, [name]: event.target.value });
  const invalid = (name: keyof DueErrors) => ({ 'aria-invalid': !!errors[name], 'aria-describedby': errors[name] ? `tp-${name}-error` : undefined });
  return (
    <fieldset className="choice due-option">
      <legend className="sr-only">Kind of charge</legend>
      <label className="checkbox">
        <input type="checkbox" checked={values.on} onChange={(e) => onChange({ ...values, on: e.target.checked })} />
        <span>
          Due-date charge <span className="muted">(cobrança com vencimento: payable until a due date, then with a fine and interest)</span>
        </span>
      </label>
      {values.on && (
        <div className="form-pair">
          <Field label="Due date" htmlFor="tp-date" error={errors.date}>
            <input id="tp-date" type="date" value={values.date} onChange={set('date')} {...invalid('date')} />
          </Field>
          <Field label="Days after due" htmlFor="tp-daysAfterDue" error={errors.daysAfterDue} hint="Still payable; then it expires.">
            <input id="tp-daysAfterDue" inputMode="numeric" value={values.daysAfterDue} onChange={set('daysAfterDue')} {...invalid('daysAfterDue')} />
          </Field>
          <Field label="Fine (%)" htmlFor="tp-finePercent" error={errors.finePercent} hint="Optional; once, when late.">
            <input id="tp-finePercent" inputMode="decimal" placeholder="2" value={values.finePercent} onChange={set('finePercent')} {...invalid('finePercent')} />
          </Field>
          <Field label="Interest (% a month)" htmlFor="tp-interestPercent" error={errors.interestPercent} hint="Optional; per day late.">
            <input id="tp-interestPercent" inputMode="decimal" placeholder="1" value={values.interestPercent} onChange={set('interestPercent')} {...invalid('interestPercent')} />
          </Field>
          {values.interestPercent.trim() && (
            <Field label="Interest counts" htmlFor="tp-interestDays">
              <select id="tp-interestDays" value={values.interestDays} onChange={set('interestDays')}>
                <option value="calendar">Calendar days</option>
                <option value="business">Business days</option>
              </select>
            </Field>
          )}
          {/* The discount and its day share a row of their own. */}
          <div className="pair-start">
            <Field label="Discount (R$)" htmlFor="tp-discount" error={errors.discount} hint="Optional; for paying early.">
              <input
                id="tp-discount"
                inputMode="decimal"
                placeholder="5,00"
                value={values.discount}
                // The discount's day starts as the due date: paid by then, the payer pays less.
                onChange={(e) => onChange({ ...values, discount: e.target.value, discountUntil: values.discountUntil || values.date })}
                {...invalid('discount')}
              />
            </Field>
          </div>
          {(values.discount.trim() || values.discountUntil) && (
            <Field label="Discount if paid by" htmlFor="tp-discountUntil" error={errors.discountUntil}>
              <input id="tp-discountUntil" type="date" value={values.discountUntil} max={values.date || undefined} onChange={set('discountUntil')} {...invalid('discountUntil')} />
            </Field>
          )}
        </div>
      )}
    </fieldset>
  );
}

import { ApiError } from '../api';
import { formatDate, formatMoney, parseReais } from '../format';
import type { Merchant, NewPaymentLink, PaymentLink, PaymentLinkState } from '../types';
import { Field } from '../ui';

/** A payment link's form as typed: amounts as the operator writes them ("59,90"), the expiry as a local date and time. */
export interface LinkFormValues {
  merchant_id: string;
  title: string;
  description: string;
  /** A fixed amount, or a range the payer chooses within. */
  pricing: 'fixed' | 'range';
  amount: string;
  min: string;
  max: string;
  /** `<input type="datetime-local">`'s value, in this browser's time zone; empty: never expires. */
  expires_at: string;
  /** Empty: no limit. */
  max_payments: string;
  collect_email: boolean;
  return_url: string;
}

export type LinkFormErrors = Partial<Record<keyof LinkFormValues, string>>;

/** As the API (src/payment-links/dto/create-payment-link.dto.ts): the title and description's length, the most payments a link sells. */
export const MAX_TITLE = 140;
export const MAX_DESCRIPTION = 140;
export const MAX_PAYMENTS_LIMIT = 100_000;

export const PAYMENT_LINK_STATE_LABELS: Record<PaymentLinkState, string> = { open: 'open', inactive: 'deactivated', expired: 'expired', used_up: 'used up' };

export function emptyLink(merchantId = ''): LinkFormValues {
  return {
    merchant_id: merchantId,
    title: '',
    description: '',
    pricing: 'fixed',
    amount: '',
    min: '',
    max: '',
    expires_at: '',
    max_payments: '',
    collect_email: false,
    return_url: '',
  };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function amountProblem(text: string, what: string): string | undefined {
  const reais = parseReais(text.trim());
  if (!text.trim()) return `Enter ${what}.`;
  if (reais === undefined || reais <= 0) return `Enter ${what} in reais, such as 59,90.`;
  return undefined;
}

/** The form's own checks, as the API makes them (it still has the last word: the gateway's maximum amount, the URL's rules). */
export function validateLink(values: LinkFormValues, now = new Date()): LinkFormErrors {
  const errors: LinkFormErrors = {};
  if (!values.merchant_id) errors.merchant_id = 'Choose the merchant whose link it is.';
  const title = values.title.trim();
  if (!title) errors.title = 'Give the link a title: it heads its page and names each payment.';
  else if (title.length > MAX_TITLE) errors.title = `The title can have at most ${MAX_TITLE} characters.`;
  if (values.description.trim().length > MAX_DESCRIPTION) errors.description = `The description can have at most ${MAX_DESCRIPTION} characters.`;
  if (values.pricing === 'fixed') {
    const problem = amountProblem(values.amount, 'the amount');
    if (problem) errors.amount = problem;
  } else {
    const min = amountProblem(values.min, 'the least a payer may pay');
    const max = amountProblem(values.max, 'the most a payer may pay');
    if (min) errors.min = min;
    if (max) errors.max = max;
    if (!min && !max && parseReais(values.max.trim())! <= parseReais(values.min.trim())!) errors.max = 'The most must be more than the least.';
  }
  if (values.expires_at) {
    const at = new Date(values.expires_at);
    if (Number.isNaN(at.getTime())) errors.expires_at = 'Enter a date and time, or leave it empty.';
    else if (at.getTime() <= now.getTime()) errors.expires_at = 'Choose a time in the future, or leave it empty for a link that never expires.';
  }
  const most = values.max_payments.trim();
  if (most && (!/^\d{1,6}$/.test(most) || Number(most) < 1 || Number(most) > MAX_PAYMENTS_LIMIT))
    errors.max_payments = `Enter a whole number from 1 to ${MAX_PAYMENTS_LIMIT.toLocaleString('en')}, or leave it empty for no limit.`;
  const url = values.return_url.trim();
  if (url) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname))))
      errors.return_url = 'Enter a full https:// address (http:// only on localhost), or leave it empty.';
  }
  return errors;
}

/** The create's body: only what was given, amounts as decimal reais, the expiry as an instant. */
export function linkBody(values: LinkFormValues): NewPaymentLink {
  const body: NewPaymentLink = { title: values.title.trim() };
  if (values.description.trim()) body.description = values.description.trim();
  if (values.pricing === 'fixed') body.amount = parseReais(values.amount.trim())!;
  else body.amountRange = { min: parseReais(values.min.trim())!, max: parseReais(values.max.trim())! };
  if (values.expires_at) body.expiresAt = new Date(values.expires_at).toISOString();
  if (values.max_payments.trim()) body.maxPayments = Number(values.max_payments.trim());
  if (values.collect_email) body.collect = { email: true };
  if (values.return_url.trim()) body.returnUrl = values.return_url.trim();
  return body;
}

/** The API's field names, as the form names them. */
const API_FIELDS: Record<string, keyof LinkFormValues> = {
  title: 'title',
  description: 'description',
  amount: 'amount',
  amountRange: 'min',
  'amountRange.min': 'min',
  'amountRange.max': 'max',
  expiresAt: 'expires_at',
  maxPayments: 'max_payments',
  returnUrl: 'return_url',
};

/** The API's field problems, beside the fields they are about. */
export function apiLinkErrors(error: unknown): LinkFormErrors {
  if (!(error instanceof ApiError)) return {};
  const errors: LinkFormErrors = {};
  for (const { field, message } of error.fields) {
    const key = API_FIELDS[field] ?? (field === 'amount' || field === 'amountRange' ? 'amount' : undefined);
    if (key && !errors[key]) errors[key] = message;
  }
  return errors;
}

/** "R$ 59,90", or "R$ 10,00 – R$ 500,00, the payer chooses". */
export function linkAmount(link: Pick<PaymentLink, 'amount' | 'amountRange'>, { short = false } = {}): string {
  if (link.amount !== null) return formatMoney(link.amount);
  const range = `${formatMoney(link.amountRange!.min)} – ${formatMoney(link.amountRange!.max)}`;
  return short ? range : `${range}, the payer chooses`;
}

/** "2 paid · 3 opened", with the limit when there is one: "2 paid · 3 opened · at most 50". */
export function linkCounts(link: Pick<PaymentLink, 'paidCount' | 'paymentsCount' | 'maxPayments'>): string {
  const parts = [`${link.paidCount} paid`, `${link.paymentsCount} opened`];
  if (link.maxPayments !== null) parts.push(`at most ${link.maxPayments}`);
  return parts.join(' · ');
}

/** Why a link takes no payment, for the top of its page; undefined while it is open. */
export function closedReason(link: Pick<PaymentLink, 'state' | 'active' | 'expiresAt' | 'maxPayments'>): string | undefined {
  switch (link.state) {
    case 'open':
      return undefined;
    case 'inactive':
      return link.active
        ? 'Its merchant is inactive: the page tells payers the link takes no payment.'
        : 'This link is deactivated: its page tells payers it no longer takes payments. Payments already made from it are kept.';
    case 'expired':
      return `This link expired ${formatDate(link.expiresAt)}: its page tells payers so.`;
    case 'used_up':
      return `This link is used up: its paid and pending payments reach its limit of ${link.maxPayments}. A pending payment that expires gives its place back.`;
  }
}

/** The create form's fields; the merchant is a choice among `merchants` (the active ones). */
export function LinkFields({
  values,
  errors,
  onChange,
  merchants,
}: {
  values: LinkFormValues;
  errors: LinkFormErrors;
  onChange: (values: LinkFormValues) => void;
  merchants?: readonly Merchant[];
}) {
  const set = (key: keyof LinkFormValues) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
    onChange({ ...values, [key]: event.target.value });
  const listed = merchants?.some((m) => m.id === values.merchant_id);
  return (
    <>
      <Field label="Merchant" htmlFor="link-merchant" error={errors.merchant_id}>
        <select id="link-merchant" value={values.merchant_id} onChange={set('merchant_id')} aria-invalid={!!errors.merchant_id}>
          <option value="">{merchants ? 'Choose a merchant' : 'Loading merchants…'}</option>
          {values.merchant_id && !listed && <option value={values.merchant_id}>{values.merchant_id}</option>}
          {merchants?.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Title" htmlFor="link-title" error={errors.title} hint="What the payer buys: it heads the page and describes each payment.">
        <input id="link-title" value={values.title} onChange={set('title')} maxLength={MAX_TITLE + 20} aria-invalid={!!errors.title} />
      </Field>
      <Field label="Description (optional)" htmlFor="link-description" error={errors.description}>
        <textarea id="link-description" rows={2} value={values.description} onChange={set('description')} aria-invalid={!!errors.description} />
      </Field>
      <fieldset className="choice">
        <legend>Amount</legend>
        <label className="checkbox">
          <input type="radio" name="link-pricing" checked={values.pricing === 'fixed'} onChange={() => onChange({ ...values, pricing: 'fixed' })} />A fixed amount
        </label>
        <label className="checkbox">
          <input type="radio" name="link-pricing" checked={values.pricing === 'range'} onChange={() => onChange({ ...values, pricing: 'range' })} />
          The payer chooses, within a range
        </label>
      </fieldset>
      {values.pricing === 'fixed' ? (
        <Field label="Amount (R$)" htmlFor="link-amount" error={errors.amount}>
          <input id="link-amount" inputMode="decimal" placeholder="59,90" value={values.amount} onChange={set('amount')} aria-invalid={!!errors.amount} />
        </Field>
      ) : (
        <div className="form-pair form-pair-tight">
          <Field label="At least (R$)" htmlFor="link-min" error={errors.min}>
            <input id="link-min" inputMode="decimal" placeholder="10,00" value={values.min} onChange={set('min')} aria-invalid={!!errors.min} />
          </Field>
          <Field label="At most (R$)" htmlFor="link-max" error={errors.max}>
            <input id="link-max" inputMode="decimal" placeholder="500,00" value={values.max} onChange={set('max')} aria-invalid={!!errors.max} />
          </Field>
        </div>
      )}
      <div className="form-pair form-pair-tight">
        <Field label="Expires (optional)" htmlFor="link-expires" error={errors.expires_at} hint="Empty: never.">
          <input id="link-expires" type="datetime-local" value={values.expires_at} onChange={set('expires_at')} aria-invalid={!!errors.expires_at} />
        </Field>
        <Field label="Most payments (optional)" htmlFor="link-max-payments" error={errors.max_payments} hint="Empty: no limit.">
          <input id="link-max-payments" inputMode="numeric" value={values.max_payments} onChange={set('max_payments')} aria-invalid={!!errors.max_payments} />
        </Field>
      </div>
      <Field label="Return URL (optional)" htmlFor="link-return" error={errors.return_url} hint="Where the checkout page sends the payer once paid (“Voltar à loja”).">
        <input
          id="link-return"
          type="url"
          inputMode="url"
          placeholder="https://shop.example.com/thanks"
          value={values.return_url}
          onChange={set('return_url')}
          aria-invalid={!!errors.return_url}
        />
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={values.collect_email} onChange={(e) => onChange({ ...values, collect_email: e.target.checked })} />
        Ask the payer&apos;s e-mail too (besides name and CPF/CNPJ)
      </label>
    </>
  );
}

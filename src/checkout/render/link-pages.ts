import type { PageBrand } from '../checkout-page';
import { formatMoney } from './format';
import { markup, type Html } from './html';
import type { Messages } from './i18n';
import { layout, type AssetLinks } from './layout';

/** A payment link's form, as its page shows it (from PaymentLinkPagesService's PaymentLinkPage). */
export interface LinkForm {
  slug: string;
  brand: PageBrand;
  title: string;
  description: string | null;
  amountCents: number | null;
  amountRangeCents: { min: number; max: number } | null;
  collectEmail: boolean;
}

/** The form's fields, as the payer filled them (shown again with the errors). */
export type LinkFormValues = Partial<Record<'name' | 'document' | 'email' | 'amount', string>>;
/** Which fields were refused. */
export type LinkFormErrors = Partial<Record<keyof LinkFormValues, string>>;

/**
 * A link's page: its title, amount (or the field for one within its range), and the payer's name,
 * CPF or CNPJ and (when the link collects it) e-mail, posted as a plain form, so it works without
 * the script. The script checks the same rules before it sends (checkout.mjs), the server again.
 */
export function linkFormHtml(form: LinkForm, m: Messages, assets: AssetLinks, values: LinkFormValues = {}, errors: LinkFormErrors = {}): string {
  const range = form.amountRangeCents;
  const min = range ? formatMoney(range.min, m) : '';
  const max = range ? formatMoney(range.max, m) : '';
  const hasErrors = Object.keys(errors).length > 0;
  const main = markup`
<h1>${form.title}</h1>
${form.amountCents !== null ? markup`<p class="amount">${formatMoney(form.amountCents, m)}</p>` : ''}
${form.description ? markup`<p class="description">${form.description}</p>` : ''}
${hasErrors ? markup`<div class="alert" role="alert"><p>${m.formHasErrors}</p></div>` : ''}
<form id="link-form" method="post" action="/l/${form.slug}" novalidate>
${
  range
    ? field('amount', m.amountField, values.amount, errors.amount, {
        hint: m.amountHint(min, max),
        attributes: markup` inputmode="decimal" autocomplete="transaction-amount" data-min="${range.min}" data-max="${range.max}"`,
        error: m.fieldErrors.amount(min, max),
      })
    : ''
}
${field('name', m.payerNameField, values.name, errors.name, { attributes: markup` autocomplete="name" maxlength="140"`, error: m.fieldErrors.name })}
${field('document', m.documentField, values.document, errors.document, {
  hint: m.documentHint,
  attributes: markup` autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="24"`,
  error: m.fieldErrors.document,
})}
${form.collectEmail ? field('email', m.emailField, values.email, errors.email, { type: 'email', attributes: markup` autocomplete="email" maxlength="254"`, error: m.fieldErrors.email }) : ''}
<button type="submit" class="button">${m.submitLink}</button>
</form>`;
  return layout({ m, title: m.linkTitle(form.title, form.brand.merchantName), brand: form.brand, assets, script: true, main });
}

/** One labelled field with its hint and its error (shown when the server refused it; the script fills it in the browser). */
function field(
  name: keyof LinkFormValues,
  label: string,
  value: string | undefined,
  refused: string | undefined,
  options: { type?: string; hint?: string; attributes: Html; error: string },
): Html {
  const described = [options.hint ? `${name}-hint` : '', `${name}-error`].filter(Boolean).join(' ');
  return markup`<div class="field">
<label for="${name}">${label}${options.hint ? markup`<span class="hint" id="${name}-hint">${options.hint}</span>` : ''}</label>
<input id="${name}" name="${name}" type="${options.type ?? 'text'}" required value="${value ?? ''}" aria-describedby="${described}"${refused ? markup` aria-invalid="true"` : ''} data-error="${options.error}"${options.attributes}>
<p class="error" id="${name}-error"${refused ? '' : markup` hidden`}>${refused ?? ''}</p>
</div>`;
}

/** A link that takes no payment now: deactivated, expired or used up. */
export function linkUnavailableHtml(reason: 'inactive' | 'expired' | 'used_up', brand: PageBrand | null, title: string | null, m: Messages, assets: AssetLinks): string {
  const says = m.linkStates[reason];
  const main = markup`<h1>${says.title}</h1>
${title ? markup`<p class="lead">${title}</p>` : ''}
<p>${says.text}</p>`;
  return layout({ m, title: says.title, brand, assets, script: false, main });
}

/** The payment could not be made (the PSP refused or failed): try again later, from the form. */
export function linkFailedHtml(slug: string, brand: PageBrand | null, m: Messages, assets: AssetLinks): string {
  const main = markup`<h1>${m.openFailedTitle}</h1>
<p>${m.openFailedText}</p>
<p><a class="button" href="/l/${slug}">${m.backToForm}</a></p>`;
  return layout({ m, title: m.openFailedTitle, brand, assets, script: false, main });
}

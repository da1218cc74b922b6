import { useState } from 'react';
import { ApiError } from '../api';
import type { Merchant } from '../types';
import { Field } from '../ui';
import { BRAND_COLOR, BrandColorInput } from './merchant-branding';

/** As the API: what a checkout page's heading holds on a phone. */
export const MAX_DISPLAY_NAME = 80;
// C0 and C1 control characters, which the API refuses in a display name (payers see it).
const CONTROL = /[\x00-\x1f\x7f-\x9f]/;

export interface MerchantFormValues {
  name: string;
  /** Empty: the checkout pages show `name`. */
  display_name: string;
  /** `#RRGGBB`; empty: the gateway's own colour. */
  brand_color: string;
  webhook_url: string;
  provider: string;
}

export type MerchantFormErrors = Partial<Record<keyof MerchantFormValues, string>>;

export function initialValues(merchant?: Merchant): MerchantFormValues {
  return {
    name: merchant?.name ?? '',
    display_name: merchant?.display_name ?? '',
    brand_color: merchant?.brand_color ?? '',
    webhook_url: merchant?.webhook_url ?? '',
    provider: merchant?.provider ?? '',
  };
}

/** The same rules the API applies to shape; the API still has the last word (URL policy). The provider is a choice, not typed. */
export function validateMerchant(values: MerchantFormValues): MerchantFormErrors {
  const errors: MerchantFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Give the merchant a name.';
  else if (name.length > 200) errors.name = 'The name can have at most 200 characters.';
  const displayName = values.display_name.trim();
  if (displayName.length > MAX_DISPLAY_NAME) errors.display_name = `The display name can have at most ${MAX_DISPLAY_NAME} characters.`;
  else if (CONTROL.test(displayName)) errors.display_name = 'The display name cannot contain control characters.';
  const colour = values.brand_color.trim();
  if (colour && !BRAND_COLOR.test(colour)) errors.brand_color = 'Enter a colour as # and six hexadecimal digits (#0F766E), or leave it empty.';
  const url = values.webhook_url.trim();
  if (url) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) errors.webhook_url = 'Enter a full http:// or https:// address, or leave it empty.';
    else if (url.length > 2048) errors.webhook_url = 'The address can have at most 2048 characters.';
  }
  return errors;
}

/** The API's field errors, placed beside the fields they are about. */
export function apiFieldErrors(error: unknown): MerchantFormErrors {
  if (!(error instanceof ApiError)) return {};
  return {
    name: error.fieldMessage('name'),
    display_name: error.fieldMessage('display_name'),
    brand_color: error.fieldMessage('brand_color'),
    webhook_url: error.fieldMessage('webhook_url'),
    provider: error.fieldMessage('provider'),
  };
}

/** A provider a merchant can be charged through without accounts: the catalogue's `built_in` ones. */
export interface ProviderChoice {
  name: string;
  label: string;
}

export function MerchantFields({
  values,
  errors,
  onChange,
  idPrefix,
  providers,
}: {
  values: MerchantFormValues;
  errors: MerchantFormErrors;
  onChange: (values: MerchantFormValues) => void;
  idPrefix: string;
  /** The providers this gateway runs (GET /providers, `built_in`); undefined while they load. */
  providers?: readonly ProviderChoice[];
}) {
  const set = (key: keyof MerchantFormValues) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange({ ...values, [key]: event.target.value });
  // The merchant's current provider stays a choice even when the gateway no longer runs it (or the list has not loaded), so that opening the form changes nothing.
  const unlisted = values.provider && !providers?.some((p) => p.name === values.provider) ? values.provider : undefined;
  return (
    <>
      <Field label="Name" htmlFor={`${idPrefix}-name`} error={errors.name}>
        <input id={`${idPrefix}-name`} value={values.name} onChange={set('name')} maxLength={220} aria-invalid={!!errors.name} />
      </Field>
      <Field
        label="Display name"
        htmlFor={`${idPrefix}-display-name`}
        error={errors.display_name}
        hint="What payers see on the checkout and payment-link pages. Empty: the name above."
      >
        <input
          id={`${idPrefix}-display-name`}
          value={values.display_name}
          onChange={set('display_name')}
          maxLength={100}
          placeholder={values.name.trim() || undefined}
          aria-invalid={!!errors.display_name}
        />
      </Field>
      <BrandColorInput
        id={`${idPrefix}-brand-color`}
        value={values.brand_color}
        error={errors.brand_color}
        sample={values.display_name.trim() || values.name.trim() || 'Your shop'}
        onChange={(brand_color) => onChange({ ...values, brand_color })}
      />
      <Field label="Webhook URL" htmlFor={`${idPrefix}-webhook`} error={errors.webhook_url} hint="Where payment events are sent. Leave empty to send none.">
        <input
          id={`${idPrefix}-webhook`}
          type="url"
          inputMode="url"
          placeholder="https://shop.example.com/webhooks/pix"
          value={values.webhook_url}
          onChange={set('webhook_url')}
          aria-invalid={!!errors.webhook_url}
        />
      </Field>
      <Field label="Provider" htmlFor={`${idPrefix}-provider`} error={errors.provider} hint="Used while the merchant has no provider accounts.">
        <select id={`${idPrefix}-provider`} value={values.provider} onChange={set('provider')} aria-invalid={!!errors.provider}>
          <option value="">The gateway&apos;s default</option>
          {providers?.map((p) => (
            <option key={p.name} value={p.name}>
              {p.label}
            </option>
          ))}
          {unlisted && <option value={unlisted}>{providers ? `${unlisted} (not run by this gateway)` : unlisted}</option>}
        </select>
      </Field>
    </>
  );
}

/** The form's values, from a merchant's or empty; the problems found live with the submission (useSubmit). */
export function useMerchantForm(merchant?: Merchant) {
  const [values, setValues] = useState(initialValues(merchant));
  return { values, setValues };
}

import type { AccountEnvironment, AccountSetting, CredentialField, ProviderDescriptor } from '../types';
import type { FormErrors } from './api-field-errors';

/**
 * A provider account form's values, the browser's checks of them against the provider's catalogue
 * entry (docs/providers.md), and the body the API takes. The API checks everything again and has
 * the last word.
 */
export interface AccountValues {
  name: string;
  provider: string;
  environment: AccountEnvironment;
  base_url: string;
  token_url: string;
  pix_key: string;
}

export interface CredentialValues {
  /** The option chosen for each alternative (`certificate` → `pkcs12`); the first one until another is. */
  choice: Record<string, string>;
  /** By credential field name: text, or true/false for a boolean. */
  fields: Record<string, string | boolean>;
  /** The names of loaded files, by field, to show which one is loaded. */
  files: Record<string, string>;
}

export const emptyAccount = (): AccountValues => ({ name: '', provider: '', environment: 'sandbox', base_url: '', token_url: '', pix_key: '' });
export const emptyCredentials = (): CredentialValues => ({ choice: {}, fields: {}, files: {} });

/** The settings an account of an unknown provider shows: every one the API has, for the API alone to judge. */
const ANY_PROVIDER_SETTINGS: AccountSetting[] = [
  { name: 'base_url', label: 'API base URL', required_in: [], help: '' },
  { name: 'token_url', label: 'Token URL', required_in: [], help: '' },
  { name: 'pix_key', label: 'Pix key', required_in: [], help: '' },
];

export function settingsOf(provider: ProviderDescriptor | undefined, fixed: boolean): AccountSetting[] {
  return provider?.settings ?? (fixed ? ANY_PROVIDER_SETTINGS : []);
}

/** "Certificate (PEM)" → "certificate": a label inside a sentence. */
export function inSentence(label: string): string {
  const bare = label.replace(/ \(.*\)$/, '');
  return /^[A-Z][a-z]/.test(bare) ? bare[0]!.toLowerCase() + bare.slice(1) : bare;
}

/** A field's label, saying when it may be left empty: "CA certificates (PEM, optional)". */
export function labelOf(label: string, required: boolean): string {
  if (required) return label;
  return label.endsWith(')') ? `${label.slice(0, -1)}, optional)` : `${label} (optional)`;
}

function httpsUrlProblem(value: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:') return 'Enter a full https:// address.';
  if (value.length > 500) return 'The address can have at most 500 characters.';
  return undefined;
}

/**
 * The account's own settings. `provider` is unknown while none is chosen, or for an existing
 * (`fixed`) account of a provider the catalogue does not list, whose rules the API alone applies.
 */
export function validateAccount(values: AccountValues, provider: ProviderDescriptor | undefined, fixed = false): FormErrors {
  const errors: FormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Give the account a name.';
  else if (name.length > 200) errors.name = 'The name can have at most 200 characters.';
  if (!provider && !fixed) errors.provider = 'Choose the PSP this account is at.';
  if (provider && !fixed && !provider.environments.some((e) => e.name === values.environment)) errors.environment = `${provider.label} has no ${values.environment} environment.`;
  for (const setting of settingsOf(provider, fixed)) {
    const value = values[setting.name].trim();
    const required = setting.required_in.includes(values.environment);
    if (setting.name === 'pix_key') {
      if (!value && required) errors.pix_key = 'Give the Pix key payments are made to.';
      else if (value.length > 77) errors.pix_key = 'A Pix key has at most 77 characters.';
    } else if (value) errors[setting.name] = httpsUrlProblem(value);
    else if (required) errors[setting.name] = `Required: the gateway knows no ${inSentence(setting.label)} of ${provider!.label} for ${values.environment}.`;
  }
  return withoutEmpty(errors);
}

/** The credential fields that apply: those outside every alternative, and those of the options chosen. */
export function fieldsInUse(provider: ProviderDescriptor, values: CredentialValues): CredentialField[] {
  const chosen = new Set<string>();
  const alternative = new Set<string>();
  for (const group of provider.one_of) {
    const picked = chosenOption(group, values);
    for (const option of group.options) for (const field of option.fields) (option === picked ? chosen : alternative).add(field);
  }
  return provider.credentials.filter((field) => chosen.has(field.name) || !alternative.has(field.name));
}

export function chosenOption(group: ProviderDescriptor['one_of'][number], values: CredentialValues) {
  return group.options.find((option) => option.name === values.choice[group.name]) ?? group.options[0]!;
}

/** A credential field's text, or '' for one not filled in (or a boolean). */
export const credentialText = (values: CredentialValues, name: string): string => {
  const value = values.fields[name];
  return typeof value === 'string' ? value : '';
};

const PRIVATE_KEY_LINE = /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;

export function validateCredentials(values: CredentialValues, provider: ProviderDescriptor): FormErrors {
  const errors: FormErrors = {};
  for (const field of fieldsInUse(provider, values)) {
    if (field.kind === 'boolean') continue;
    const value = credentialText(values, field.name).trim();
    const key = `credentials.${field.name}`;
    if (!value) {
      if (!field.required) continue;
      if (field.kind === 'pem') errors[key] = `Paste the ${inSentence(field.label)}, or load its file.`;
      else if (field.kind === 'pkcs12') errors[key] = `Choose the ${inSentence(field.label)} to load.`;
      else errors[key] = `Give the ${inSentence(field.label)}.`;
    } else if (field.pem === 'private_key' && !PRIVATE_KEY_LINE.test(value)) errors[key] = 'This is not a PEM private key: it has no BEGIN PRIVATE KEY line.';
    else if (field.pem === 'certificates' && !value.includes('-----BEGIN CERTIFICATE-----')) errors[key] = 'This is not a PEM certificate: it has no BEGIN CERTIFICATE line.';
  }
  return errors;
}

/** The `credentials` object the API takes: the fields in use that were filled in, and nothing else. */
export function credentialsBody(values: CredentialValues, provider: ProviderDescriptor): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fieldsInUse(provider, values)) {
    const value = values.fields[field.name];
    if (field.kind === 'boolean') {
      if (value === true) body[field.name] = true;
    } else if (typeof value === 'string' && value.trim()) {
      // A secret is sent as typed: spaces may be part of a password.
      body[field.name] = field.kind === 'secret' ? value : value.trim();
    }
  }
  return body;
}

function withoutEmpty(errors: FormErrors): FormErrors {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message));
}

import { ChangeEvent, useState } from 'react';
import { api, ApiError } from '../api';
import { formatDateOnly } from '../format';
import type { AccountEnvironment, AccountSetting, CredentialField, ProviderAccountCheck, ProviderDescriptor } from '../types';
import { Badge, Field, messageOf, useLoad } from '../ui';

/**
 * A provider account's forms, built from the catalogue the gateway serves (`GET /admin/api/providers`,
 * docs/providers.md): each provider says which environments, hosts, settings and credential fields
 * it has. Nothing here knows a PSP; the API checks everything again and has the last word.
 */
export function useCatalogue() {
  return useLoad(() => api<ProviderDescriptor[]>('GET', '/providers'), []);
}

export function findProvider(catalogue: readonly ProviderDescriptor[] | undefined, name: string): ProviderDescriptor | undefined {
  return catalogue?.find((provider) => provider.name === name);
}

/** The provider's label, or its name while the catalogue is loading or does not list it. */
export function providerLabel(catalogue: readonly ProviderDescriptor[] | undefined, name: string): string {
  return findProvider(catalogue, name)?.label ?? name;
}

/** Whether the provider's accounts present a client certificate (a Pix API PSP's mTLS), which their summary then describes. */
export function takesCertificate(provider: ProviderDescriptor): boolean {
  return provider.credentials.some((field) => field.kind === 'pem' || field.kind === 'pkcs12');
}

/** The providers a merchant without accounts can be charged through: the choices of its `provider`, undefined while the catalogue loads. */
export function builtInProviders(catalogue: readonly ProviderDescriptor[] | undefined): { name: string; label: string }[] | undefined {
  return catalogue?.filter((provider) => provider.built_in).map(({ name, label }) => ({ name, label }));
}

export const ENVIRONMENT_LABELS: Record<AccountEnvironment, string> = { sandbox: 'Sandbox', production: 'Production' };
const ENVIRONMENTS = Object.keys(ENVIRONMENT_LABELS) as AccountEnvironment[];

/**
 * Which environment an account (or a payment made through one) is in: homologation stands out from
 * real money, and an outlined badge does not read as a status beside one.
 */
export function EnvironmentBadge({ environment }: { environment: AccountEnvironment }) {
  return (
    <span className={`badge badge-env badge-env-${environment}`} title={environment === 'sandbox' ? "The PSP's homologation host: test credentials, no real money" : 'Real money'}>
      {environment}
    </span>
  );
}

// ---- Values, checks and the API's answer ------------------------------------------------------

/** Errors by the API's own field names: `name`, `base_url`, `credentials.certificate_pem`, … */
export type FormErrors = Partial<Record<string, string>>;

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

function settingsOf(provider: ProviderDescriptor | undefined, fixed: boolean): AccountSetting[] {
  return provider?.settings ?? (fixed ? ANY_PROVIDER_SETTINGS : []);
}

function defaultHost(provider: ProviderDescriptor | undefined, environment: AccountEnvironment, setting: 'base_url' | 'token_url'): string | null {
  return provider?.environments.find((e) => e.name === environment)?.[setting] ?? null;
}

/** "Certificate (PEM)" → "certificate": a label inside a sentence. */
function inSentence(label: string): string {
  const bare = label.replace(/ \(.*\)$/, '');
  return /^[A-Z][a-z]/.test(bare) ? bare[0]!.toLowerCase() + bare.slice(1) : bare;
}

/** A field's label, saying when it may be left empty: "CA certificates (PEM, optional)". */
function labelOf(label: string, required: boolean): string {
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

function chosenOption(group: ProviderDescriptor['one_of'][number], values: CredentialValues) {
  return group.options.find((option) => option.name === values.choice[group.name]) ?? group.options[0]!;
}

const text = (values: CredentialValues, name: string): string => {
  const value = values.fields[name];
  return typeof value === 'string' ? value : '';
};

const PRIVATE_KEY_LINE = /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;

export function validateCredentials(values: CredentialValues, provider: ProviderDescriptor): FormErrors {
  const errors: FormErrors = {};
  for (const field of fieldsInUse(provider, values)) {
    if (field.kind === 'boolean') continue;
    const value = text(values, field.name).trim();
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

/** One of the API's field problems as a sentence that names its field (credentials errors say only "is required"). */
function fieldText({ field, message }: { field: string; message: string }): string {
  const name = field.split('.').pop() ?? field;
  return message.startsWith(name) ? message : `${name} ${message}`;
}

/** The API's field errors, to place beside the fields they are about. */
export function apiErrors(error: unknown): FormErrors {
  if (!(error instanceof ApiError)) return {};
  const errors: FormErrors = {};
  for (const problem of error.fields) errors[problem.field] ??= fieldText(problem);
  return errors;
}

/** What went wrong, in words: a refusal lists every field problem, naming each field. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'VALIDATION_ERROR' && error.fields.length > 0) return `Please check: ${error.fields.map(fieldText).join('; ')}.`;
  return messageOf(error);
}

function withoutEmpty(errors: FormErrors): FormErrors {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message));
}

// ---- Files -------------------------------------------------------------------------------------

/** The API takes at most 64 KiB a field: base64 makes a bundle a third larger. */
const MAX_PEM_BYTES = 64 * 1024;
const MAX_PKCS12_BYTES = 48 * 1024;

/** A file's contents through FileReader: as text (PEM), or as base64 (a PKCS#12 bundle). */
export function readFile(file: File, as: 'text' | 'base64'): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = typeof reader.result === 'string' ? reader.result : '';
      resolve(as === 'text' ? result : result.slice(result.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read`));
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/** The certificate blocks and the private key block of a PEM text (a `.pem` may hold both). */
export function splitPem(text: string): { certificates: string; key: string } {
  const blocks = [...text.matchAll(PEM_BLOCK)];
  return {
    certificates: blocks
      .filter((block) => block[1] === 'CERTIFICATE')
      .map((block) => block[0])
      .join('\n'),
    key: blocks.find((block) => block[1]!.endsWith('PRIVATE KEY'))?.[0] ?? '',
  };
}

// ---- Fields ------------------------------------------------------------------------------------

/**
 * The account's settings. The provider and the environment are chosen once, at creation (the API
 * changes neither afterwards); `fixed` gives them for an existing account. Hosts the provider knows
 * are shown as the placeholders of the fields that override them.
 */
export function AccountFields({
  idPrefix,
  catalogue,
  values,
  errors,
  onChange,
  fixed = false,
}: {
  idPrefix: string;
  catalogue: readonly ProviderDescriptor[];
  values: AccountValues;
  errors: FormErrors;
  onChange: (values: AccountValues) => void;
  fixed?: boolean;
}) {
  const provider = findProvider(catalogue, values.provider);
  const set = (key: keyof AccountValues) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange({ ...values, [key]: event.target.value });
  const environments = provider?.environments.map((e) => e.name) ?? ENVIRONMENTS;
  const chooseProvider = (event: ChangeEvent<HTMLSelectElement>) => {
    const next = findProvider(catalogue, event.target.value);
    // A provider with one environment only (a simulated PSP) takes that one.
    const environment = next && !next.environments.some((e) => e.name === values.environment) ? next.environments[0]!.name : values.environment;
    onChange({ ...values, provider: event.target.value, environment });
  };
  return (
    <>
      <Field label="Name" htmlFor={`${idPrefix}-name`} error={errors.name} hint="For you: which bank, which company, which purpose.">
        <input id={`${idPrefix}-name`} value={values.name} onChange={set('name')} maxLength={220} aria-invalid={!!errors.name} />
      </Field>
      {!fixed && (
        <>
          <Field label="Provider" htmlFor={`${idPrefix}-provider`} error={errors.provider}>
            <select id={`${idPrefix}-provider`} value={values.provider} onChange={chooseProvider} aria-invalid={!!errors.provider}>
              <option value="">Choose the PSP…</option>
              {catalogue.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Environment" htmlFor={`${idPrefix}-environment`} error={errors.environment} hint="Sandbox: the PSP's homologation host, with homologation credentials.">
            <select id={`${idPrefix}-environment`} value={values.environment} onChange={set('environment')} aria-invalid={!!errors.environment}>
              {environments.map((name) => (
                <option key={name} value={name}>
                  {ENVIRONMENT_LABELS[name]}
                </option>
              ))}
            </select>
          </Field>
        </>
      )}
      {settingsOf(provider, fixed).map((setting) => {
        const id = `${idPrefix}-${setting.name.replace('_', '-')}`;
        if (setting.name === 'pix_key')
          return (
            <Field key={setting.name} label={setting.label} htmlFor={id} error={errors.pix_key} hint={setting.help || undefined}>
              <input id={id} value={values.pix_key} onChange={set('pix_key')} maxLength={90} aria-invalid={!!errors.pix_key} />
            </Field>
          );
        const host = defaultHost(provider, values.environment, setting.name);
        const required = setting.required_in.includes(values.environment);
        const hint = required
          ? `Required: the gateway knows no ${inSentence(setting.label)} of this PSP for ${values.environment}.`
          : host
            ? `Optional: leave empty for the default shown.`
            : `Optional: overrides the PSP's documented ${inSentence(setting.label)}.`;
        return (
          <Field key={setting.name} label={setting.label} htmlFor={id} error={errors[setting.name]} hint={setting.help ? `${hint} ${setting.help}` : hint}>
            <input
              id={id}
              type="url"
              inputMode="url"
              placeholder={host ?? 'https://'}
              value={values[setting.name]}
              onChange={set(setting.name)}
              aria-invalid={!!errors[setting.name]}
            />
          </Field>
        );
      })}
    </>
  );
}

/** A PEM text area, filled by pasting or from a file (.pem, .crt, .key) read in the browser. */
function PemField({
  id,
  field,
  value,
  error,
  onChange,
  onFile,
}: {
  id: string;
  field: CredentialField;
  value: string;
  error?: string;
  onChange: (text: string) => void;
  onFile: (text: string) => void;
}) {
  const [readError, setReadError] = useState<string>();
  const [loaded, setLoaded] = useState<string>();
  const key = field.pem === 'private_key';
  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setReadError(undefined);
    setLoaded(undefined);
    if (file.size > MAX_PEM_BYTES) return setReadError(`${file.name} is too large for a PEM file (at most 64 kB).`);
    try {
      onFile(await readFile(file, 'text'));
      setLoaded(file.name);
    } catch {
      setReadError(`${file.name} could not be read.`);
    }
  };
  return (
    <Field label={labelOf(field.label, field.required)} htmlFor={id} error={error ?? readError} hint={field.help}>
      <textarea
        id={id}
        className="pem"
        rows={4}
        spellCheck={false}
        autoComplete="off"
        placeholder={key ? '-----BEGIN PRIVATE KEY-----' : '-----BEGIN CERTIFICATE-----'}
        value={value}
        onChange={(e) => {
          setLoaded(undefined);
          onChange(e.target.value);
        }}
        aria-invalid={!!(error ?? readError)}
      />
      <label className="file-pick">
        <span>Load the {inSentence(field.label)} from a file</span>
        <input type="file" accept={key ? '.pem,.key' : '.pem,.crt,.cer'} onChange={(e) => void load(e)} />
      </label>
      {loaded && <div className="field-hint">Loaded: {loaded}</div>}
    </Field>
  );
}

/** A PKCS#12 bundle (.p12, .pfx), read in the browser into the base64 of its bytes. */
function BundleField({ id, field, file, error, onLoad }: { id: string; field: CredentialField; file?: string; error?: string; onLoad: (base64: string, file: string) => void }) {
  const [readError, setReadError] = useState<string>();
  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setReadError(undefined);
    if (chosen.size > MAX_PKCS12_BYTES) return setReadError(`${chosen.name} is too large for a certificate bundle (at most 48 kB).`);
    try {
      onLoad(await readFile(chosen, 'base64'), chosen.name);
    } catch {
      setReadError(`${chosen.name} could not be read.`);
    }
  };
  const problem = error ?? readError;
  return (
    <Field label={labelOf(field.label, field.required)} htmlFor={id} error={problem} hint={file ? `Loaded: ${file}` : field.help}>
      <input id={id} type="file" accept=".p12,.pfx" onChange={(e) => void load(e)} aria-invalid={!!problem} />
    </Field>
  );
}

/**
 * The provider's credential fields, each by its kind, and a choice for each of its alternatives (a
 * PEM pair or a PKCS#12 bundle), shown where its first field is. Nothing here leaves the browser
 * except in the request that saves it; the API never shows it again.
 */
export function CredentialsFields({
  idPrefix,
  provider,
  values,
  errors,
  onChange,
}: {
  idPrefix: string;
  provider: ProviderDescriptor;
  values: CredentialValues;
  errors: FormErrors;
  onChange: (values: CredentialValues) => void;
}) {
  const inUse = fieldsInUse(provider, values);
  const setField = (name: string, value: string | boolean, more: Record<string, string | boolean> = {}) =>
    onChange({ ...values, fields: { ...values.fields, [name]: value, ...more } });
  const error = (name: string) => errors[`credentials.${name}`];

  const input = (field: CredentialField) => {
    const id = `${idPrefix}-${field.name.replace(/_/g, '-')}`;
    switch (field.kind) {
      case 'boolean':
        return (
          <div className="field" key={field.name}>
            <label className="checkbox">
              <input type="checkbox" checked={values.fields[field.name] === true} onChange={(e) => setField(field.name, e.target.checked)} />
              {field.label}
            </label>
            {error(field.name) ? <div className="field-error">{error(field.name)}</div> : <div className="field-hint">{field.help}</div>}
          </div>
        );
      case 'pem': {
        // A .pem holding certificates and a key fills the key field that goes with it too.
        const keyField = field.pem === 'certificates' ? inUse.find((other) => other.pem === 'private_key') : undefined;
        const load = (loaded: string) => {
          const { certificates, key } = splitPem(loaded);
          if (field.pem === 'private_key') return setField(field.name, key || loaded);
          setField(field.name, certificates || loaded, keyField && key ? { [keyField.name]: key } : {});
        };
        return (
          <PemField key={field.name} id={id} field={field} value={text(values, field.name)} error={error(field.name)} onChange={(t) => setField(field.name, t)} onFile={load} />
        );
      }
      case 'pkcs12':
        return (
          <BundleField
            key={field.name}
            id={id}
            field={field}
            file={values.files[field.name]}
            error={error(field.name)}
            onLoad={(base64, file) => onChange({ ...values, fields: { ...values.fields, [field.name]: base64 }, files: { ...values.files, [field.name]: file } })}
          />
        );
      default:
        return (
          <Field key={field.name} label={labelOf(field.label, field.required)} htmlFor={id} error={error(field.name)} hint={field.help}>
            <input
              id={id}
              type={field.kind === 'secret' ? 'password' : 'text'}
              value={text(values, field.name)}
              onChange={(e) => setField(field.name, e.target.value)}
              autoComplete={field.kind === 'secret' ? 'new-password' : 'off'}
              spellCheck={false}
              aria-invalid={!!error(field.name)}
            />
          </Field>
        );
    }
  };

  const shown = new Set<string>();
  return (
    <>
      {provider.credentials.map((field) => {
        const group = provider.one_of.find((g) => g.options.some((option) => option.fields.includes(field.name)));
        if (!group) return input(field);
        if (shown.has(group.name)) return null;
        shown.add(group.name);
        const picked = chosenOption(group, values);
        return (
          <div key={group.name}>
            <fieldset className="choice">
              <legend className="label">{group.label}</legend>
              {group.options.map((option) => (
                <label className="checkbox" key={option.name}>
                  <input
                    type="radio"
                    name={`${idPrefix}-${group.name}`}
                    checked={option === picked}
                    onChange={() => onChange({ ...values, choice: { ...values.choice, [group.name]: option.name } })}
                  />
                  {option.label}
                </label>
              ))}
            </fieldset>
            {provider.credentials.filter((f) => picked.fields.includes(f.name)).map(input)}
          </div>
        );
      })}
      {errors.credentials && <div className="field-error">{errors.credentials}</div>}
    </>
  );
}

// ---- Certificate expiry ------------------------------------------------------------------------

const DAY_MS = 86_400_000;
export const EXPIRY_WARNING_DAYS = 30;

/** Days until `iso` (negative once past), and whether that calls for a warning: within 30 days, or past. */
export function certificateExpiry(iso: string, now = Date.now()): { days: number; state: 'ok' | 'soon' | 'expired' } {
  const left = new Date(iso).getTime() - now;
  const days = Math.floor(left / DAY_MS);
  return { days, state: left <= 0 ? 'expired' : left <= EXPIRY_WARNING_DAYS * DAY_MS ? 'soon' : 'ok' };
}

/** The certificate's end of validity, with a warning badge when it is near or past. */
export function CertificateExpiry({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">—</span>;
  const { days, state } = certificateExpiry(iso);
  return (
    <span className="cert-expiry">
      <span>{formatDateOnly(iso)}</span> {state === 'expired' && <Badge value="failed" label="expired" />}
      {state === 'soon' && <Badge value="pending" label={days === 0 ? 'expires today' : `expires in ${days} day${days === 1 ? '' : 's'}`} />}
    </span>
  );
}

/** A check's outcome on one line: whether it worked, how long it took, and what the PSP said. */
export function CheckResult({ result }: { result: ProviderAccountCheck }) {
  return (
    <span className="check-result">
      <Badge value={result.ok ? 'active' : 'failed'} label={result.ok ? 'ok' : 'failed'} /> <span className="muted small">{result.latency_ms} ms</span>
      {result.detail && <span className="check-detail small">{result.detail}</span>}
    </span>
  );
}

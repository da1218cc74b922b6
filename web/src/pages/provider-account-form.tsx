import { ChangeEvent, useState } from 'react';
import { ApiError } from '../api';
import { formatDateOnly } from '../format';
import type { AccountEnvironment, ProviderAccountCheck } from '../types';
import { Badge, Field, messageOf } from '../ui';

/**
 * What a provider account's forms know of each provider (docs/providers.md): the Pix API family's
 * credentials are the same everywhere, a client id and secret and a client certificate (PEM pair or
 * PKCS#12 bundle), plus a few bank-specific fields, by the names the API takes. The API checks
 * everything again and has the last word.
 */
export interface ExtraField {
  name: string;
  label: string;
  kind: 'string' | 'boolean';
  required: boolean;
  hint: string;
}

export interface ProviderOption {
  name: string;
  label: string;
  /** False where the token call is authenticated by the certificate alone (Sicoob). */
  clientSecret: boolean;
  /** Environments for which the gateway knows no host of this PSP: base_url and token_url are required there. */
  endpointsRequiredIn: AccountEnvironment[];
  extras: ExtraField[];
}

const BOTH: AccountEnvironment[] = ['sandbox', 'production'];

export const PROVIDERS: readonly ProviderOption[] = [
  { name: 'pix-api', label: 'Pix API (any PSP that follows the standard)', clientSecret: true, endpointsRequiredIn: BOTH, extras: [] },
  {
    name: 'efi',
    label: 'Efí',
    clientSecret: true,
    endpointsRequiredIn: [],
    extras: [
      {
        name: 'skip_mtls_checking',
        label: 'Register the webhook with x-skip-mtls-checking',
        kind: 'boolean',
        required: false,
        hint: "For a gateway behind a proxy that cannot ask for Efí's client certificate.",
      },
    ],
  },
  { name: 'sicoob', label: 'Sicoob', clientSecret: false, endpointsRequiredIn: ['sandbox'], extras: [] },
  {
    name: 'bb',
    label: 'Banco do Brasil',
    clientSecret: true,
    endpointsRequiredIn: [],
    extras: [
      {
        name: 'app_key',
        label: 'Application key',
        kind: 'string',
        required: true,
        hint: 'The developer application key BB issues (gw-dev-app-key in homologation, gw-app-key in production).',
      },
    ],
  },
  { name: 'itau', label: 'Itaú', clientSecret: true, endpointsRequiredIn: ['sandbox'], extras: [] },
  {
    name: 'inter',
    label: 'Inter',
    clientSecret: true,
    endpointsRequiredIn: [],
    extras: [{ name: 'conta_corrente', label: 'Conta corrente', kind: 'string', required: false, hint: 'Only for an API application tied to more than one account.' }],
  },
  { name: 'santander', label: 'Santander', clientSecret: true, endpointsRequiredIn: [], extras: [] },
  { name: 'sicredi', label: 'Sicredi', clientSecret: true, endpointsRequiredIn: [], extras: [] },
];

export function providerOption(name: string): ProviderOption | undefined {
  return PROVIDERS.find((option) => option.name === name);
}

export function providerLabel(name: string): string {
  return providerOption(name)?.label.replace(/ \(.*\)$/, '') ?? name;
}

export const ENVIRONMENT_LABELS: Record<AccountEnvironment, string> = { sandbox: 'Sandbox', production: 'Production' };

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
  mode: 'pem' | 'pkcs12';
  client_id: string;
  client_secret: string;
  certificate_pem: string;
  private_key_pem: string;
  ca_pem: string;
  pkcs12_base64: string;
  /** The bundle's file name, to show which one is loaded. */
  pkcs12_file: string;
  pkcs12_password: string;
  extras: Record<string, string | boolean>;
}

export const emptyAccount = (): AccountValues => ({ name: '', provider: '', environment: 'sandbox', base_url: '', token_url: '', pix_key: '' });

export const emptyCredentials = (): CredentialValues => ({
  mode: 'pem',
  client_id: '',
  client_secret: '',
  certificate_pem: '',
  private_key_pem: '',
  ca_pem: '',
  pkcs12_base64: '',
  pkcs12_file: '',
  pkcs12_password: '',
  extras: {},
});

export function endpointsRequired(option: ProviderOption | undefined, environment: AccountEnvironment): boolean {
  return option?.endpointsRequiredIn.includes(environment) ?? false;
}

function httpsUrlProblem(value: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:') return 'Enter a full https:// address: the PSP is reached over mutual TLS.';
  if (value.length > 500) return 'The address can have at most 500 characters.';
  return undefined;
}

/**
 * The account's own settings. `option` is the provider's: unknown while none is chosen, or for an
 * existing (`fixed`) account of a provider this form does not know, whose rules the API alone applies.
 */
export function validateAccount(values: AccountValues, option: ProviderOption | undefined, fixed = false): FormErrors {
  const errors: FormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'Give the account a name.';
  else if (name.length > 200) errors.name = 'The name can have at most 200 characters.';
  if (!option && !fixed) errors.provider = 'Choose the PSP this account is at.';
  for (const key of ['base_url', 'token_url'] as const) {
    const value = values[key].trim();
    if (value) errors[key] = httpsUrlProblem(value);
    else if (endpointsRequired(option, values.environment))
      errors[key] = `Required: the gateway knows no ${key === 'base_url' ? 'API host' : 'token URL'} of ${providerLabel(values.provider)} for ${values.environment}.`;
  }
  const pixKey = values.pix_key.trim();
  // Every Pix API PSP charges to the account's key.
  if (!pixKey && (option || !fixed)) errors.pix_key = 'Give the Pix key payments are made to.';
  else if (pixKey.length > 77) errors.pix_key = 'A Pix key has at most 77 characters.';
  return withoutEmpty(errors);
}

export function validateCredentials(values: CredentialValues, option: ProviderOption): FormErrors {
  const errors: FormErrors = {};
  if (!values.client_id.trim()) errors['credentials.client_id'] = 'Give the client id the PSP issued.';
  if (option.clientSecret && !values.client_secret.trim()) errors['credentials.client_secret'] = 'Give the client secret the PSP issued.';
  if (values.mode === 'pem') {
    if (!values.certificate_pem.trim()) errors['credentials.certificate_pem'] = 'Paste the client certificate, or load its file.';
    else if (!values.certificate_pem.includes('-----BEGIN CERTIFICATE-----'))
      errors['credentials.certificate_pem'] = 'This is not a PEM certificate: it has no BEGIN CERTIFICATE line.';
    if (!values.private_key_pem.trim()) errors['credentials.private_key_pem'] = 'Paste the private key, or load its file.';
    else if (!/-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(values.private_key_pem))
      errors['credentials.private_key_pem'] = 'This is not a PEM private key: it has no BEGIN PRIVATE KEY line.';
  } else if (!values.pkcs12_base64) errors['credentials.pkcs12_base64'] = 'Choose the .p12 or .pfx file the PSP issued.';
  if (values.ca_pem.trim() && !values.ca_pem.includes('-----BEGIN CERTIFICATE-----'))
    errors['credentials.ca_pem'] = 'This is not a PEM certificate: it has no BEGIN CERTIFICATE line.';
  for (const extra of option.extras) {
    const value = values.extras[extra.name];
    if (extra.required && (typeof value !== 'string' || !value.trim())) errors[`credentials.${extra.name}`] = `Give the ${extra.label.toLowerCase()}.`;
  }
  return errors;
}

/** The `credentials` object the API takes for `option`: the chosen certificate form only, and this provider's extras only. */
export function credentialsBody(values: CredentialValues, option: ProviderOption): Record<string, unknown> {
  const body: Record<string, unknown> = { client_id: values.client_id.trim() };
  if (option.clientSecret) body.client_secret = values.client_secret.trim();
  if (values.mode === 'pem') {
    body.certificate_pem = values.certificate_pem.trim();
    body.private_key_pem = values.private_key_pem.trim();
  } else {
    body.pkcs12_base64 = values.pkcs12_base64;
    if (values.pkcs12_password) body.pkcs12_password = values.pkcs12_password;
  }
  if (values.ca_pem.trim()) body.ca_pem = values.ca_pem.trim();
  for (const extra of option.extras) {
    const value = values.extras[extra.name];
    if (extra.kind === 'boolean' && value === true) body[extra.name] = true;
    if (extra.kind === 'string' && typeof value === 'string' && value.trim()) body[extra.name] = value.trim();
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
 * changes neither afterwards); `fixed` gives them for an existing account.
 */
export function AccountFields({
  idPrefix,
  values,
  errors,
  onChange,
  fixed,
}: {
  idPrefix: string;
  values: AccountValues;
  errors: FormErrors;
  onChange: (values: AccountValues) => void;
  fixed?: boolean;
}) {
  const option = providerOption(values.provider);
  const required = endpointsRequired(option, values.environment);
  const set = (key: keyof AccountValues) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange({ ...values, [key]: event.target.value });
  const endpointHint = (what: string) =>
    required ? `Required: the gateway knows no ${what} of this PSP for ${values.environment}.` : `Optional: overrides the PSP's documented ${what}.`;
  return (
    <>
      <Field label="Name" htmlFor={`${idPrefix}-name`} error={errors.name} hint="For you: which bank, which company, which purpose.">
        <input id={`${idPrefix}-name`} value={values.name} onChange={set('name')} maxLength={220} aria-invalid={!!errors.name} />
      </Field>
      {!fixed && (
        <>
          <Field label="Provider" htmlFor={`${idPrefix}-provider`} error={errors.provider}>
            <select id={`${idPrefix}-provider`} value={values.provider} onChange={set('provider')} aria-invalid={!!errors.provider}>
              <option value="">Choose the PSP…</option>
              {PROVIDERS.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Environment" htmlFor={`${idPrefix}-environment`} error={errors.environment} hint="Sandbox: the PSP's homologation host, with homologation credentials.">
            <select id={`${idPrefix}-environment`} value={values.environment} onChange={set('environment')} aria-invalid={!!errors.environment}>
              <option value="sandbox">{ENVIRONMENT_LABELS.sandbox}</option>
              <option value="production">{ENVIRONMENT_LABELS.production}</option>
            </select>
          </Field>
        </>
      )}
      <Field label="API base URL" htmlFor={`${idPrefix}-base-url`} error={errors.base_url} hint={endpointHint('API host')}>
        <input
          id={`${idPrefix}-base-url`}
          type="url"
          inputMode="url"
          placeholder="https://pix.example-psp.com.br/v2"
          value={values.base_url}
          onChange={set('base_url')}
          aria-invalid={!!errors.base_url}
        />
      </Field>
      <Field label="Token URL" htmlFor={`${idPrefix}-token-url`} error={errors.token_url} hint={endpointHint('token URL')}>
        <input
          id={`${idPrefix}-token-url`}
          type="url"
          inputMode="url"
          placeholder="https://pix.example-psp.com.br/oauth/token"
          value={values.token_url}
          onChange={set('token_url')}
          aria-invalid={!!errors.token_url}
        />
      </Field>
      <Field label="Pix key" htmlFor={`${idPrefix}-pix-key`} error={errors.pix_key} hint="The receiving key, registered at this PSP: charges are made to it.">
        <input id={`${idPrefix}-pix-key`} value={values.pix_key} onChange={set('pix_key')} maxLength={90} aria-invalid={!!errors.pix_key} />
      </Field>
    </>
  );
}

/** A PEM text area, filled by pasting or from a file (.pem, .crt, .key) read in the browser. */
function PemField({
  id,
  label,
  fileLabel,
  accept,
  hint,
  value,
  error,
  onChange,
  onFile,
}: {
  id: string;
  label: string;
  fileLabel: string;
  accept: string;
  hint: string;
  value: string;
  error?: string;
  onChange: (text: string) => void;
  onFile: (text: string) => void;
}) {
  const [readError, setReadError] = useState<string>();
  const [loaded, setLoaded] = useState<string>();
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
    <Field label={label} htmlFor={id} error={error ?? readError} hint={hint}>
      <textarea
        id={id}
        className="pem"
        rows={4}
        spellCheck={false}
        autoComplete="off"
        placeholder={accept.includes('.key') ? '-----BEGIN PRIVATE KEY-----' : '-----BEGIN CERTIFICATE-----'}
        value={value}
        onChange={(e) => {
          setLoaded(undefined);
          onChange(e.target.value);
        }}
        aria-invalid={!!(error ?? readError)}
      />
      <label className="file-pick">
        <span>{fileLabel}</span>
        <input type="file" accept={accept} onChange={(e) => void load(e)} />
      </label>
      {loaded && <div className="field-hint">Loaded: {loaded}</div>}
    </Field>
  );
}

/**
 * Client id and secret, the client certificate as a PEM pair or a PKCS#12 bundle, the CA that
 * signed the PSP's server certificate (optional), and `option`'s bank-specific fields. Nothing
 * here leaves the browser except in the request that saves it; the API never shows it again.
 */
export function CredentialsFields({
  idPrefix,
  option,
  values,
  errors,
  onChange,
}: {
  idPrefix: string;
  option: ProviderOption;
  values: CredentialValues;
  errors: FormErrors;
  onChange: (values: CredentialValues) => void;
}) {
  const [bundleError, setBundleError] = useState<string>();
  const set = (key: 'client_id' | 'client_secret' | 'pkcs12_password') => (event: ChangeEvent<HTMLInputElement>) => onChange({ ...values, [key]: event.target.value });
  const error = (field: string) => errors[`credentials.${field}`];

  // A .pem holding the certificate and its key fills both fields.
  const loadCertificate = (text: string) => {
    const { certificates, key } = splitPem(text);
    onChange({ ...values, certificate_pem: certificates || text, private_key_pem: key || values.private_key_pem });
  };
  const loadKey = (text: string) => onChange({ ...values, private_key_pem: splitPem(text).key || text });

  const loadBundle = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setBundleError(undefined);
    if (file.size > MAX_PKCS12_BYTES) return setBundleError(`${file.name} is too large for a certificate bundle (at most 48 kB).`);
    try {
      onChange({ ...values, pkcs12_base64: await readFile(file, 'base64'), pkcs12_file: file.name });
    } catch {
      setBundleError(`${file.name} could not be read.`);
    }
  };

  const bundleProblem = error('pkcs12_base64') ?? bundleError;
  return (
    <>
      <Field label="Client ID" htmlFor={`${idPrefix}-client-id`} error={error('client_id')}>
        <input id={`${idPrefix}-client-id`} value={values.client_id} onChange={set('client_id')} autoComplete="off" spellCheck={false} aria-invalid={!!error('client_id')} />
      </Field>
      {option.clientSecret && (
        <Field label="Client secret" htmlFor={`${idPrefix}-client-secret`} error={error('client_secret')}>
          <input
            id={`${idPrefix}-client-secret`}
            type="password"
            value={values.client_secret}
            onChange={set('client_secret')}
            autoComplete="new-password"
            spellCheck={false}
            aria-invalid={!!error('client_secret')}
          />
        </Field>
      )}
      <fieldset className="choice">
        <legend className="label">Client certificate</legend>
        <label className="checkbox">
          <input type="radio" name={`${idPrefix}-mode`} checked={values.mode === 'pem'} onChange={() => onChange({ ...values, mode: 'pem' })} />
          Certificate and private key (PEM: .pem, .crt, .key)
        </label>
        <label className="checkbox">
          <input type="radio" name={`${idPrefix}-mode`} checked={values.mode === 'pkcs12'} onChange={() => onChange({ ...values, mode: 'pkcs12' })} />
          PKCS#12 bundle (.p12, .pfx)
        </label>
      </fieldset>
      {values.mode === 'pem' ? (
        <>
          <PemField
            id={`${idPrefix}-certificate`}
            label="Certificate (PEM)"
            fileLabel="Load the certificate from a file"
            accept=".pem,.crt,.cer"
            hint="The client certificate first, then its chain if the PSP gave one."
            value={values.certificate_pem}
            error={error('certificate_pem')}
            onChange={(text) => onChange({ ...values, certificate_pem: text })}
            onFile={loadCertificate}
          />
          <PemField
            id={`${idPrefix}-private-key`}
            label="Private key (PEM)"
            fileLabel="Load the private key from a file"
            accept=".pem,.key"
            hint="Without a passphrase."
            value={values.private_key_pem}
            error={error('private_key_pem')}
            onChange={(text) => onChange({ ...values, private_key_pem: text })}
            onFile={loadKey}
          />
        </>
      ) : (
        <>
          <Field
            label="PKCS#12 file"
            htmlFor={`${idPrefix}-pkcs12`}
            error={bundleProblem}
            hint={values.pkcs12_file ? `Loaded: ${values.pkcs12_file}` : 'The .p12 or .pfx file the PSP issued.'}
          >
            <input id={`${idPrefix}-pkcs12`} type="file" accept=".p12,.pfx" onChange={(e) => void loadBundle(e)} aria-invalid={!!bundleProblem} />
          </Field>
          <Field label="Bundle password" htmlFor={`${idPrefix}-pkcs12-password`} error={error('pkcs12_password')} hint="Leave empty for a bundle without one.">
            <input
              id={`${idPrefix}-pkcs12-password`}
              type="password"
              value={values.pkcs12_password}
              onChange={set('pkcs12_password')}
              autoComplete="off"
              aria-invalid={!!error('pkcs12_password')}
            />
          </Field>
        </>
      )}
      <PemField
        id={`${idPrefix}-ca`}
        label="CA certificates (PEM, optional)"
        fileLabel="Load the CA certificates from a file"
        accept=".pem,.crt,.cer"
        hint="Only if the PSP's server certificate is signed by a CA that is not publicly trusted."
        value={values.ca_pem}
        error={error('ca_pem')}
        onChange={(text) => onChange({ ...values, ca_pem: text })}
        onFile={(text) => onChange({ ...values, ca_pem: splitPem(text).certificates || text })}
      />
      {option.extras.map((extra) =>
        extra.kind === 'boolean' ? (
          <div className="field" key={extra.name}>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={values.extras[extra.name] === true}
                onChange={(e) => onChange({ ...values, extras: { ...values.extras, [extra.name]: e.target.checked } })}
              />
              {extra.label}
            </label>
            {error(extra.name) ? <div className="field-error">{error(extra.name)}</div> : <div className="field-hint">{extra.hint}</div>}
          </div>
        ) : (
          <Field
            key={extra.name}
            label={extra.required ? extra.label : `${extra.label} (optional)`}
            htmlFor={`${idPrefix}-${extra.name}`}
            error={error(extra.name)}
            hint={extra.hint}
          >
            <input
              id={`${idPrefix}-${extra.name}`}
              value={typeof values.extras[extra.name] === 'string' ? (values.extras[extra.name] as string) : ''}
              onChange={(e) => onChange({ ...values, extras: { ...values.extras, [extra.name]: e.target.value } })}
              autoComplete="off"
              aria-invalid={!!error(extra.name)}
            />
          </Field>
        ),
      )}
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
      {formatDateOnly(iso)} {state === 'expired' && <Badge value="failed" label="expired" />}
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

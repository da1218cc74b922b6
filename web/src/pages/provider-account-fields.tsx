import { ChangeEvent } from 'react';
import type { AccountEnvironment, ProviderDescriptor } from '../types';
import { Field } from '../ui';
import type { FormErrors } from './api-field-errors';
import { inSentence, settingsOf, type AccountValues } from './provider-account-values';
import { ENVIRONMENT_LABELS, ENVIRONMENTS, findProvider } from './provider-catalogue';

function defaultHost(provider: ProviderDescriptor | undefined, environment: AccountEnvironment, setting: 'base_url' | 'token_url'): string | null {
  return provider?.environments.find((e) => e.name === environment)?.[setting] ?? null;
}

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

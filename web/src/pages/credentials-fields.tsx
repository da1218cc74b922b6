import type { CredentialField, ProviderDescriptor } from '../types';
import { Field } from '../ui';
import type { FormErrors } from './api-field-errors';
import { BundleField, PemField, splitPem } from './credential-file-fields';
import { chosenOption, credentialText, fieldsInUse, labelOf, type CredentialValues } from './provider-account-values';

type Alternative = ProviderDescriptor['one_of'][number];

/** The radio buttons of one alternative (a PEM pair or a PKCS#12 bundle): the fields of the option picked follow it. */
function AlternativePicker({ name, group, picked, onPick }: { name: string; group: Alternative; picked: Alternative['options'][number]; onPick: (option: string) => void }) {
  return (
    <fieldset className="choice">
      <legend className="label">{group.label}</legend>
      {group.options.map((option) => (
        <label className="checkbox" key={option.name}>
          <input type="radio" name={name} checked={option === picked} onChange={() => onPick(option.name)} />
          {option.label}
        </label>
      ))}
    </fieldset>
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
          <PemField
            key={field.name}
            id={id}
            field={field}
            value={credentialText(values, field.name)}
            error={error(field.name)}
            onChange={(t) => setField(field.name, t)}
            onFile={load}
          />
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
              value={credentialText(values, field.name)}
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
            <AlternativePicker
              name={`${idPrefix}-${group.name}`}
              group={group}
              picked={picked}
              onPick={(option) => onChange({ ...values, choice: { ...values.choice, [group.name]: option } })}
            />
            {provider.credentials.filter((f) => picked.fields.includes(f.name)).map(input)}
          </div>
        );
      })}
      {errors.credentials && <div className="field-error">{errors.credentials}</div>}
    </>
  );
}

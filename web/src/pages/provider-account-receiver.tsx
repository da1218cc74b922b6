import { ChangeEvent, useState } from 'react';
import type { ProviderAccount, ProviderDescriptor } from '../types';
import { Button, Card, Confirm, Field, FormModal, useSubmit } from '../ui';
import { apiErrors, failureText, type FormErrors } from './provider-account-form';

/**
 * An account's receiver account (`receiver_account`, docs/providers.md): the account at the PSP where
 * recurring Pix charges settle, the Pix API's `recebedor`. Not secret; optional until the account
 * takes its first recurrence. The API checks it again and has the last word.
 */
export type ReceiverAccount = NonNullable<ProviderAccount['receiver_account']>;
type AccountType = ReceiverAccount['tipoConta'];

export const ACCOUNT_TYPE_LABELS: Record<AccountType, string> = {
  CORRENTE: 'Checking (corrente)',
  POUPANCA: 'Savings (poupança)',
  PAGAMENTO: 'Payment account (pagamento)',
};
const ACCOUNT_TYPES = Object.keys(ACCOUNT_TYPE_LABELS) as AccountType[];

/** The form's values: text as typed, and no type until one is chosen. */
export interface ReceiverValues {
  agencia: string;
  conta: string;
  tipoConta: AccountType | '';
}

export const emptyReceiver = (): ReceiverValues => ({ agencia: '', conta: '', tipoConta: '' });

export function receiverValuesOf(account: ReceiverAccount | null | undefined): ReceiverValues {
  return account ? { ...account } : emptyReceiver();
}

const isEmpty = (values: ReceiverValues) => !values.agencia.trim() && !values.conta.trim() && !values.tipoConta;

/** Whether the provider takes recurrences (its catalogue entry declares Pix Automático): only then does an account need a receiver. */
export function takesRecurrences(provider: ProviderDescriptor | undefined): boolean {
  return !!provider?.capabilities.recurring;
}

/**
 * The limits of the Pix API's `recebedor` (`agencia` at most 4 characters, `conta` at most 20, one
 * of three types). Left empty it is no error unless `required`: the account simply has none.
 */
export function validateReceiver(values: ReceiverValues, required = false): FormErrors {
  if (!required && isEmpty(values)) return {};
  const errors: FormErrors = {};
  const agencia = values.agencia.trim();
  const conta = values.conta.trim();
  if (!agencia) errors['receiver_account.agencia'] = 'Give the branch number.';
  else if (agencia.length > 4) errors['receiver_account.agencia'] = 'A branch number has at most 4 characters.';
  if (!conta) errors['receiver_account.conta'] = 'Give the account number.';
  else if (conta.length > 20) errors['receiver_account.conta'] = 'An account number has at most 20 characters.';
  if (!values.tipoConta) errors['receiver_account.tipoConta'] = 'Choose the account type.';
  return errors;
}

/** What the API takes: the three fields trimmed, or null for none. Check with validateReceiver first. */
export function receiverBody(values: ReceiverValues): ReceiverAccount | null {
  if (isEmpty(values) || !values.tipoConta) return null;
  return { agencia: values.agencia.trim(), conta: values.conta.trim(), tipoConta: values.tipoConta };
}

/** The three fields in their own fieldset, each with the API's error for it (`receiver_account.conta`, …). */
export function ReceiverAccountFields({
  idPrefix,
  values,
  errors,
  onChange,
  optional = true,
}: {
  idPrefix: string;
  values: ReceiverValues;
  errors: FormErrors;
  onChange: (values: ReceiverValues) => void;
  optional?: boolean;
}) {
  const set = (key: keyof ReceiverValues) => (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange({ ...values, [key]: event.target.value });
  const error = (name: keyof ReceiverValues) => errors[`receiver_account.${name}`];
  return (
    <fieldset className="choice" aria-describedby={`${idPrefix}-receiver-help`}>
      <legend className="label">Receiver account for recurring Pix{optional ? ' (optional)' : ''}</legend>
      <p className="field-hint" id={`${idPrefix}-receiver-help`}>
        Where this PSP settles recurring charges (Pix Automático): your account at this bank. Needed before the account takes its first recurrence.
      </p>
      <Field label="Branch (agência)" htmlFor={`${idPrefix}-agencia`} error={error('agencia')}>
        <input
          id={`${idPrefix}-agencia`}
          value={values.agencia}
          onChange={set('agencia')}
          inputMode="numeric"
          maxLength={10}
          autoComplete="off"
          aria-invalid={!!error('agencia')}
        />
      </Field>
      <Field label="Account number (conta)" htmlFor={`${idPrefix}-conta`} error={error('conta')}>
        <input id={`${idPrefix}-conta`} value={values.conta} onChange={set('conta')} inputMode="numeric" maxLength={30} autoComplete="off" aria-invalid={!!error('conta')} />
      </Field>
      <Field label="Account type" htmlFor={`${idPrefix}-tipo-conta`} error={error('tipoConta')}>
        <select id={`${idPrefix}-tipo-conta`} value={values.tipoConta} onChange={set('tipoConta')} aria-invalid={!!error('tipoConta')}>
          <option value="">Choose the type…</option>
          {ACCOUNT_TYPES.map((type) => (
            <option key={type} value={type}>
              {ACCOUNT_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </Field>
      {errors.receiver_account && <div className="field-error">{errors.receiver_account}</div>}
    </fieldset>
  );
}

/**
 * The account page's card: the receiver account as stored, set or changed in a dialog, or removed
 * once confirmed. `onSave` sends `{receiver_account}` (null removes it) and shows the account as the
 * API returns it.
 */
export function ReceiverAccountCard({ account, onSave }: { account: ReceiverAccount | null; onSave: (receiver: ReceiverAccount | null) => Promise<unknown> }) {
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  return (
    <Card
      title="Recurring Pix"
      actions={
        <>
          <Button onClick={() => setEditing(true)}>{account ? 'Change' : 'Set receiver account'}</Button>
          {account && <Button onClick={() => setRemoving(true)}>Remove</Button>}
        </>
      }
    >
      {account ? (
        <dl className="fields" aria-label="Receiver account">
          <dt>Branch</dt>
          <dd className="mono">{account.agencia}</dd>
          <dt>Account</dt>
          <dd className="mono">{account.conta}</dd>
          <dt>Type</dt>
          <dd>{ACCOUNT_TYPE_LABELS[account.tipoConta] ?? account.tipoConta}</dd>
        </dl>
      ) : (
        <p className="muted small">No receiver account: set the account at this bank where recurring charges settle before this account takes its first recurrence.</p>
      )}
      {editing && <EditReceiver current={account} onClose={() => setEditing(false)} onSave={onSave} />}
      {removing && (
        <Confirm title="Remove the receiver account?" confirmLabel="Remove" onConfirm={() => onSave(null)} onClose={() => setRemoving(false)}>
          <p>This account can then take no new recurrence until a receiver account is set again.</p>
        </Confirm>
      )}
    </Card>
  );
}

function EditReceiver({ current, onClose, onSave }: { current: ReceiverAccount | null; onClose: () => void; onSave: (receiver: ReceiverAccount) => Promise<unknown> }) {
  const [values, setValues] = useState(() => receiverValuesOf(current));
  const form = useSubmit({
    check: () => validateReceiver(values, true),
    send: async () => {
      await onSave(receiverBody(values)!);
      onClose();
    },
    fieldErrors: apiErrors,
    failureText,
  });
  return (
    <FormModal id="edit-receiver" title="Receiver account" submitLabel="Save" form={form} onClose={onClose}>
      <ReceiverAccountFields idPrefix="receiver" values={values} errors={form.errors} onChange={setValues} optional={false} />
    </FormModal>
  );
}

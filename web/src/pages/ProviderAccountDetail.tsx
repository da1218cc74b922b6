import { useState } from 'react';
import { api } from '../api';
import { formatDate } from '../format';
import type { ProviderAccount, ProviderAccountCheck, ProviderAccountWebhook, ProviderDescriptor } from '../types';
import { RecordHeader, RecordUnloaded, SettingsCard, useRecord } from '../record';
import { Button, Card, CopyButton, FormModal, Notice, useSubmit } from '../ui';
import {
  AccountFields,
  AccountValues,
  apiErrors,
  CertificateExpiry,
  CheckResult,
  credentialsBody,
  CredentialsFields,
  emptyCredentials,
  EnvironmentBadge,
  failureText,
  findProvider,
  providerLabel,
  takesCertificate,
  useCatalogue,
  validateAccount,
  validateCredentials,
} from './provider-account-form';
import { HealthDetails } from './account-health';
import { ReceiverAccountCard, takesRecurrences } from './provider-account-receiver';
import { DueCapabilityRows } from './provider-capabilities';

/** The settings an account's page can change: its provider and environment are fixed. */
const SETTINGS = ['name', 'base_url', 'token_url', 'pix_key'] as const;

function settingsOf(account: ProviderAccount): AccountValues {
  return {
    name: account.name,
    provider: account.provider,
    environment: account.environment,
    base_url: account.base_url ?? '',
    token_url: account.token_url ?? '',
    pix_key: account.pix_key ?? '',
  };
}

/** One provider account: its settings, its credentials replaced whole, a check, and its webhook registered at the PSP. */
export function ProviderAccountDetail({ id }: { id: string }) {
  const account = useRecord<ProviderAccount>('/provider-accounts', id);
  const catalogue = useCatalogue();
  const [replacing, setReplacing] = useState(false);
  const [checked, setChecked] = useState<ProviderAccountCheck>();

  if (!account.data) return <RecordUnloaded title="Provider account" error={account.error} back={{ to: '/admin/provider-accounts', label: 'Back to provider accounts' }} />;
  const a = account.data;
  const provider = findProvider(catalogue.data, a.provider);
  const { busy, run, patch } = account;

  const check = () =>
    run('check', async () => {
      setChecked(undefined);
      setChecked(await api<ProviderAccountCheck>('POST', `/provider-accounts/${a.id}/check`));
    });

  const registerWebhook = () =>
    run('webhook', async () => {
      const registered = await api<ProviderAccountWebhook>('POST', `/provider-accounts/${a.id}/webhook`);
      account.setDone(`The webhook is registered: the PSP now posts this account's events to ${registered.webhook_url}`);
    });

  const summary = a.credentials_summary;
  // What the summary holds (a client id, a certificate) is shown for providers that take a certificate.
  const certificate = !provider || takesCertificate(provider);
  return (
    <>
      <RecordHeader
        page={account}
        list={{ to: '/admin/provider-accounts', label: 'Provider accounts' }}
        actions={
          <>
            <Button busy={busy === 'check'} onClick={() => void check()}>
              Check
            </Button>
            {provider?.capabilities.register_webhook !== false && (
              <Button busy={busy === 'webhook'} onClick={() => void registerWebhook()}>
                Register webhook
              </Button>
            )}
          </>
        }
        deactivate={{
          title: 'Deactivate this account?',
          explain: (
            <p>
              Payments stop going through <strong>{a.name}</strong> until you reactivate it, and merchants can no longer choose it. Its settings and credentials are kept.
            </p>
          ),
          done: 'The account is inactive: payments no longer go through it.',
        }}
        reactivated="The account is active again."
      />
      {checked && (
        <Notice kind={checked.ok ? 'info' : 'warning'} onClose={() => setChecked(undefined)}>
          <strong>{checked.ok ? 'The account works.' : 'The check failed.'}</strong> <CheckResult result={checked} />
        </Notice>
      )}
      {!a.active && <Notice kind="warning">This account is inactive: payments do not go through it, and merchants cannot choose it, until it is reactivated.</Notice>}

      <div className="grid-2">
        <SettingsCard
          key={a.updated_at}
          label="Account settings"
          original={settingsOf(a)}
          keys={SETTINGS}
          check={(values) => validateAccount(values, provider, true)}
          fieldErrors={apiErrors}
          failureText={failureText}
          onSave={(body) => patch(body, 'Changes saved.')}
          fields={(values, errors, onChange) => <AccountFields idPrefix="account" catalogue={catalogue.data ?? []} values={values} errors={errors} onChange={onChange} fixed />}
        />

        <div className="stack">
          <Card title="Account">
            <dl className="fields">
              <dt>Provider</dt>
              <dd>{providerLabel(catalogue.data, a.provider)}</dd>
              <dt>Environment</dt>
              <dd>
                <EnvironmentBadge environment={a.environment} />
              </dd>
              <DueCapabilityRows provider={provider} />
              <dt>Webhook URL</dt>
              <dd>
                <div className="copy-cell">
                  <span className="mono small" data-testid="webhook-url">
                    {a.webhook_url}
                  </span>
                  <CopyButton text={a.webhook_url} />
                </div>
              </dd>
            </dl>
            <p className="muted small">
              The PSP must post this account's events to this URL: "Register webhook" tells it so where its API allows, otherwise set it in the PSP's portal.
            </p>
          </Card>
          {/* A gateway from before receiver accounts sends none: undefined. */}
          {(!!a.receiver_account || takesRecurrences(provider)) && (
            <ReceiverAccountCard
              account={a.receiver_account ?? null}
              onSave={(receiver_account) => patch({ receiver_account }, receiver_account ? 'The receiver account is saved.' : 'The receiver account is removed.')}
            />
          )}
          {a.health && (
            <Card title="Health">
              <HealthDetails health={a.health} />
            </Card>
          )}
          <Card title="Credentials" actions={provider && <Button onClick={() => setReplacing(true)}>Replace credentials</Button>}>
            {certificate ? (
              <dl className="fields">
                <dt>Client ID</dt>
                <dd className="mono">{summary.client_id ?? '—'}</dd>
                <dt>Certificate</dt>
                <dd>{summary.certificate_subject ?? '—'}</dd>
                <dt>Expires</dt>
                <dd>
                  <CertificateExpiry iso={summary.certificate_expires_at} />
                </dd>
              </dl>
            ) : (
              <p className="muted small">This provider's credentials are secrets only: they are never shown.</p>
            )}
            <p className="muted small">
              Created {formatDate(a.created_at)} · updated {formatDate(a.updated_at)}
            </p>
          </Card>
        </div>
      </div>

      {replacing && provider && (
        <ReplaceCredentials provider={provider} onClose={() => setReplacing(false)} onSave={(credentials) => patch({ credentials }, 'The new credentials are in place.')} />
      )}
    </>
  );
}

function ReplaceCredentials({
  provider,
  onClose,
  onSave,
}: {
  provider: ProviderDescriptor;
  onClose: () => void;
  onSave: (credentials: Record<string, unknown>) => Promise<unknown>;
}) {
  const [values, setValues] = useState(emptyCredentials);
  const form = useSubmit({
    check: () => validateCredentials(values, provider),
    send: async () => {
      await onSave(credentialsBody(values, provider));
      onClose();
    },
    fieldErrors: apiErrors,
    failureText,
  });

  return (
    <FormModal id="replace-credentials" title="Replace credentials" submitLabel="Replace credentials" form={form} onClose={onClose}>
      <p className="muted small">The new credentials replace the current ones whole, once the gateway has checked them; until then nothing changes.</p>
      <CredentialsFields idPrefix="replace" provider={provider} values={values} errors={form.errors} onChange={setValues} />
    </FormModal>
  );
}

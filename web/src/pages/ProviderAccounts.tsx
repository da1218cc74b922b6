import { useState } from 'react';
import { api } from '../api';
import { Link, navigate } from '../router';
import type { ProviderAccount, ProviderAccountCheck, ProviderDescriptor } from '../types';
import { Badge, Button, CopyButton, Empty, FormModal, Notice, PageHeader, Spinner, messageOf, useLoad, useSubmit } from '../ui';
import {
  AccountFields,
  apiErrors,
  CertificateExpiry,
  CheckResult,
  credentialsBody,
  CredentialsFields,
  emptyAccount,
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
import { HealthSummary } from './account-health';
import { emptyReceiver, ReceiverAccountFields, receiverBody, takesRecurrences, validateReceiver } from './provider-account-receiver';

type Checking = { busy: true } | { busy: false; result?: ProviderAccountCheck; error?: string };

/**
 * The provider accounts merchants' payments go through (docs/providers.md): each one's health (its
 * circuit and recent failures, and a check on demand), how long its certificate has left, and the
 * webhook URL to give its PSP.
 */
export function ProviderAccounts() {
  const { data, error, loading } = useLoad(() => api<ProviderAccount[]>('GET', '/provider-accounts'), []);
  const catalogue = useCatalogue();
  const [checks, setChecks] = useState<Record<string, Checking>>({});
  const [creating, setCreating] = useState(false);

  const check = async (id: string) => {
    setChecks((all) => ({ ...all, [id]: { busy: true } }));
    let outcome: Checking;
    try {
      outcome = { busy: false, result: await api<ProviderAccountCheck>('POST', `/provider-accounts/${id}/check`) };
    } catch (e) {
      outcome = { busy: false, error: messageOf(e) };
    }
    setChecks((all) => ({ ...all, [id]: outcome }));
  };

  return (
    <>
      <PageHeader
        title="Provider accounts"
        subtitle="Your credentials at each PSP. A merchant's payments go through the accounts chosen on its page, in order."
        actions={
          <Button kind="primary" onClick={() => setCreating(true)} disabled={!catalogue.data}>
            New account
          </Button>
        }
      />
      <Notice>{error}</Notice>
      <Notice>{catalogue.error && `The list of providers could not be read, so no account can be created: ${catalogue.error}`}</Notice>
      {loading && !data && <Spinner />}
      {data?.length === 0 && <Empty>No provider accounts yet. Add one with the credentials your PSP issued, then choose it on a merchant's page.</Empty>}
      {data && data.length > 0 && (
        // Sized to fit the page's width (styles.css, "Provider accounts"); below that, it scrolls rather than hide Check and Copy.
        <div className="card card-flush table-scroll">
          <table className="table table-cards table-accounts" aria-label="Provider accounts">
            <thead>
              <tr>
                <th>Name</th>
                <th>Provider</th>
                <th>Status</th>
                <th>Certificate expires</th>
                <th>Webhook URL</th>
                <th>Health</th>
              </tr>
            </thead>
            <tbody>
              {data.map((a) => {
                const state = checks[a.id];
                return (
                  <tr key={a.id}>
                    <td data-label="Name">
                      <div className="cell-stack">
                        <Link to={`/admin/provider-accounts/${a.id}`} className="strong">
                          {a.name}
                        </Link>
                        <div className="mono muted small">{a.id}</div>
                      </div>
                    </td>
                    <td data-label="Provider">{providerLabel(catalogue.data, a.provider)}</td>
                    <td data-label="Status">
                      <div className="badge-stack">
                        <EnvironmentBadge environment={a.environment} />
                        <Badge value={a.active ? 'active' : 'inactive'} />
                      </div>
                    </td>
                    <td data-label="Certificate expires">
                      <CertificateExpiry iso={a.credentials_summary.certificate_expires_at} />
                    </td>
                    <td data-label="Webhook URL">
                      <div className="copy-cell">
                        <span className="truncate mono small" title={a.webhook_url}>
                          {a.webhook_url}
                        </span>
                        <CopyButton text={a.webhook_url} />
                      </div>
                    </td>
                    <td data-label="Health">
                      <div className="check-cell">
                        <HealthSummary health={a.health} />
                        <Button busy={state?.busy} onClick={() => void check(a.id)}>
                          Check
                        </Button>
                        {state && !state.busy && state.result && <CheckResult result={state.result} />}
                        {state && !state.busy && state.error && <span className="check-detail small error-text">{state.error}</span>}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {creating && catalogue.data && <CreateAccount catalogue={catalogue.data} onClose={() => setCreating(false)} />}
    </>
  );
}

function CreateAccount({ catalogue, onClose }: { catalogue: ProviderDescriptor[]; onClose: () => void }) {
  const [values, setValues] = useState(emptyAccount);
  const [credentials, setCredentials] = useState(emptyCredentials);
  const [receiver, setReceiver] = useState(emptyReceiver);
  const provider = findProvider(catalogue, values.provider);
  const recurring = !!provider && takesRecurrences(provider);
  const form = useSubmit({
    // Without a provider, validateAccount asks for one: nothing is sent.
    check: () => ({
      ...validateAccount(values, provider),
      ...(provider ? validateCredentials(credentials, provider) : {}),
      ...(recurring ? validateReceiver(receiver) : {}),
    }),
    send: async () => {
      if (!provider) return;
      // Only the settings this provider takes, and only those filled in.
      const settings: Record<string, string> = {};
      for (const setting of provider.settings) if (values[setting.name].trim()) settings[setting.name] = values[setting.name].trim();
      const receiverAccount = recurring ? receiverBody(receiver) : null;
      const created = await api<ProviderAccount>('POST', '/provider-accounts', {
        name: values.name.trim(),
        provider: provider.name,
        environment: values.environment,
        ...settings,
        credentials: credentialsBody(credentials, provider),
        ...(receiverAccount ? { receiver_account: receiverAccount } : {}),
      });
      navigate(`/admin/provider-accounts/${created.id}`);
    },
    fieldErrors: apiErrors,
    failureText,
  });

  return (
    <FormModal id="create-account" title="New provider account" submitLabel="Create account" form={form} onClose={onClose}>
      <AccountFields idPrefix="new-account" catalogue={catalogue} values={values} errors={form.errors} onChange={setValues} />
      {provider ? (
        <CredentialsFields idPrefix="new-account" provider={provider} values={credentials} errors={form.errors} onChange={setCredentials} />
      ) : (
        <p className="muted small">Choose the provider to enter its settings and credentials: what they hold depends on the PSP.</p>
      )}
      {recurring && <ReceiverAccountFields idPrefix="new-account" values={receiver} errors={form.errors} onChange={setReceiver} />}
      <p className="muted small">
        The credentials are checked, then stored encrypted. The gateway never shows them again
        {provider && takesCertificate(provider) ? ": only the client id and the certificate's subject and expiry." : '.'}
      </p>
    </FormModal>
  );
}

import { useState } from 'react';
import { api } from '../api';
import { formatDate } from '../format';
import { Link } from '../router';
import type { ProviderAccount, ProviderAccountCheck, ProviderAccountWebhook } from '../types';
import { Badge, Button, Card, Confirm, CopyButton, Modal, Notice, PageHeader, Spinner, messageOf, onSubmit, useLoad } from '../ui';
import {
  AccountFields,
  AccountValues,
  apiErrors,
  CertificateExpiry,
  CheckResult,
  credentialsBody,
  CredentialsFields,
  emptyCredentials,
  ENVIRONMENT_LABELS,
  failureText,
  FormErrors,
  ProviderOption,
  providerLabel,
  providerOption,
  validateAccount,
  validateCredentials,
} from './provider-account-form';

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
  const account = useLoad(() => api<ProviderAccount>('GET', `/provider-accounts/${encodeURIComponent(id)}`), [id]);
  const [dialog, setDialog] = useState<'deactivate' | 'credentials'>();
  const [done, setDone] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const [checked, setChecked] = useState<ProviderAccountCheck>();

  if (account.error && !account.data) {
    return (
      <>
        <PageHeader title="Provider account" />
        <Notice>{account.error}</Notice>
        <Link to="/admin/provider-accounts">Back to provider accounts</Link>
      </>
    );
  }
  if (!account.data) return <Spinner />;
  const a = account.data;
  const option = providerOption(a.provider);

  const patch = async (body: Record<string, unknown>, message: string) => {
    const updated = await api<ProviderAccount>('PATCH', `/provider-accounts/${a.id}`, body);
    account.setData(updated);
    setDone(message);
    setFailure(undefined);
    return updated;
  };

  const run = async (name: string, action: () => Promise<unknown>) => {
    setBusy(name);
    setFailure(undefined);
    setDone(undefined);
    try {
      await action();
    } catch (e) {
      setFailure(messageOf(e));
    } finally {
      setBusy(undefined);
    }
  };

  const check = () =>
    run('check', async () => {
      setChecked(undefined);
      setChecked(await api<ProviderAccountCheck>('POST', `/provider-accounts/${a.id}/check`));
    });

  const registerWebhook = () =>
    run('webhook', async () => {
      const registered = await api<ProviderAccountWebhook>('POST', `/provider-accounts/${a.id}/webhook`);
      setDone(`The webhook is registered: the PSP now posts this account's events to ${registered.webhook_url}`);
    });

  const summary = a.credentials_summary;
  return (
    <>
      <div className="crumbs">
        <Link to="/admin/provider-accounts">Provider accounts</Link> / <span>{a.name}</span>
      </div>
      <PageHeader
        title={
          <>
            {a.name} <Badge value={a.active ? 'active' : 'inactive'} />
          </>
        }
        subtitle={<span className="mono">{a.id}</span>}
        actions={
          <>
            <Button busy={busy === 'check'} onClick={() => void check()}>
              Check
            </Button>
            <Button busy={busy === 'webhook'} onClick={() => void registerWebhook()}>
              Register webhook
            </Button>
            {a.active ? (
              <Button kind="danger" onClick={() => setDialog('deactivate')}>
                Deactivate
              </Button>
            ) : (
              <Button kind="primary" busy={busy === 'reactivate'} onClick={() => void run('reactivate', () => patch({ active: true }, 'The account is active again.'))}>
                Reactivate
              </Button>
            )}
          </>
        }
      />
      <Notice kind="success" onClose={() => setDone(undefined)}>
        {done}
      </Notice>
      <Notice onClose={() => setFailure(undefined)}>{failure}</Notice>
      {checked && (
        <Notice kind={checked.ok ? 'info' : 'warning'} onClose={() => setChecked(undefined)}>
          <strong>{checked.ok ? 'The account works.' : 'The check failed.'}</strong> <CheckResult result={checked} />
        </Notice>
      )}
      {!a.active && <Notice kind="warning">This account is inactive: payments do not go through it, and merchants cannot choose it, until it is reactivated.</Notice>}

      <div className="grid-2">
        <Settings key={a.updated_at} account={a} onSave={(body) => patch(body, 'Changes saved.')} />

        <div className="stack">
          <Card title="Account">
            <dl className="fields">
              <dt>Provider</dt>
              <dd>{providerLabel(a.provider)}</dd>
              <dt>Environment</dt>
              <dd>{ENVIRONMENT_LABELS[a.environment]}</dd>
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
          <Card title="Credentials" actions={option && <Button onClick={() => setDialog('credentials')}>Replace credentials</Button>}>
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
            <p className="muted small">
              Created {formatDate(a.created_at)} · updated {formatDate(a.updated_at)}
            </p>
          </Card>
        </div>
      </div>

      {dialog === 'deactivate' && (
        <Confirm
          title="Deactivate this account?"
          confirmLabel="Deactivate"
          onClose={() => setDialog(undefined)}
          onConfirm={() => patch({ active: false }, 'The account is inactive: payments no longer go through it.')}
        >
          <p>
            Payments stop going through <strong>{a.name}</strong> until you reactivate it, and merchants can no longer choose it. Its settings and credentials are kept.
          </p>
        </Confirm>
      )}
      {dialog === 'credentials' && option && (
        <ReplaceCredentials option={option} onClose={() => setDialog(undefined)} onSave={(credentials) => patch({ credentials }, 'The new credentials are in place.')} />
      )}
    </>
  );
}

function Settings({ account, onSave }: { account: ProviderAccount; onSave: (body: Record<string, unknown>) => Promise<unknown> }) {
  const original = settingsOf(account);
  const [values, setValues] = useState(original);
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const keys = ['name', 'base_url', 'token_url', 'pix_key'] as const;
  const changed = keys.filter((key) => values[key].trim() !== original[key]);

  const submit = async () => {
    const problems = validateAccount(values, providerOption(account.provider), true);
    setErrors(problems);
    setFailure(undefined);
    if (Object.keys(problems).length > 0 || changed.length === 0) return;
    const body: Record<string, unknown> = {};
    for (const key of changed) body[key] = key === 'name' ? values.name.trim() : values[key].trim() || null;
    setBusy(true);
    try {
      await onSave(body);
    } catch (e) {
      setErrors(apiErrors(e));
      setFailure(failureText(e));
      setBusy(false);
    }
  };

  return (
    <Card title="Settings">
      <form onSubmit={onSubmit(() => void submit())} noValidate aria-label="Account settings">
        <Notice>{failure}</Notice>
        <AccountFields idPrefix="account" values={values} errors={errors} onChange={setValues} fixed />
        <div className="button-row">
          <Button kind="primary" type="submit" busy={busy} disabled={changed.length === 0}>
            Save changes
          </Button>
          {changed.length > 0 && (
            <Button kind="ghost" onClick={() => setValues(original)}>
              Discard
            </Button>
          )}
        </div>
      </form>
    </Card>
  );
}

function ReplaceCredentials({ option, onClose, onSave }: { option: ProviderOption; onClose: () => void; onSave: (credentials: Record<string, unknown>) => Promise<unknown> }) {
  const [values, setValues] = useState(emptyCredentials);
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  const submit = async () => {
    const problems = validateCredentials(values, option);
    setErrors(problems);
    setFailure(undefined);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      await onSave(credentialsBody(values, option));
      onClose();
    } catch (e) {
      setErrors(apiErrors(e));
      setFailure(failureText(e));
      setBusy(false);
    }
  };

  return (
    <Modal
      title="Replace credentials"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button kind="primary" type="submit" form="replace-credentials" busy={busy}>
            Replace credentials
          </Button>
        </>
      }
    >
      <form id="replace-credentials" onSubmit={onSubmit(() => void submit())} noValidate>
        <Notice>{failure}</Notice>
        <p className="muted small">The new credentials replace the current ones whole, once the gateway has checked them; until then nothing changes.</p>
        <CredentialsFields idPrefix="replace" option={option} values={values} errors={errors} onChange={setValues} />
      </form>
    </Modal>
  );
}

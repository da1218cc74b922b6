import { useState } from 'react';
import { api } from '../api';
import { formatDate, relative } from '../format';
import { Link } from '../router';
import type { ApiKey, IssuedApiKey, Merchant, ProviderAccount } from '../types';
import { RecordHeader, RecordUnloaded, SettingsCard, useRecord } from '../record';
import { Badge, Button, Card, Confirm, Empty, Notice, SecretReveal, useLoad } from '../ui';
import { apiFieldErrors, initialValues, MerchantFields, MerchantFormValues, validateMerchant } from './merchant-form';
import { MerchantAccounts } from './merchant-accounts';
import { builtInProviders, useCatalogue } from './provider-account-form';
import { TestEvent } from './delivery-bits';
import { MerchantTestModeNotice } from './test-mode';
import { RefundAfterCloseCard } from './paid-after-close';

type Dialog =
  { kind: 'revoke'; key: ApiKey } | { kind: 'rotate-secret' } | { kind: 'remove-secret' } | { kind: 'reveal-key'; key: IssuedApiKey } | { kind: 'reveal-secret'; secret: string };

const SETTINGS: readonly (keyof MerchantFormValues)[] = ['name', 'display_name', 'brand_color', 'webhook_url', 'provider'];

export function MerchantDetail({ id }: { id: string }) {
  const merchant = useRecord<Merchant>('/merchants', id);
  const keys = useLoad(() => api<ApiKey[]>('GET', `/merchants/${encodeURIComponent(id)}/api-keys`), [id]);
  const accounts = useLoad(() => api<ProviderAccount[]>('GET', '/provider-accounts'), []);
  const catalogue = useCatalogue();
  const [dialog, setDialog] = useState<Dialog>();

  if (!merchant.data) return <RecordUnloaded title="Merchant" error={merchant.error} back={{ to: '/admin/merchants', label: 'Back to merchants' }} />;
  const m = merchant.data;
  const { busy, run, patch } = merchant;

  const issueKey = () =>
    run('issue', async () => {
      const key = await api<IssuedApiKey>('POST', `/merchants/${m.id}/api-keys`);
      setDialog({ kind: 'reveal-key', key });
      await keys.reload();
    });

  const generateSecret = async () => {
    const updated = await patch({ webhook_signing_secret: 'generate' }, 'A new signing secret is in place.');
    if (updated.webhook_signing_secret) setDialog({ kind: 'reveal-secret', secret: updated.webhook_signing_secret });
  };

  const activeKeys = keys.data?.filter((k) => !k.revoked_at) ?? [];
  return (
    <>
      <RecordHeader
        page={merchant}
        list={{ to: '/admin/merchants', label: 'Merchants' }}
        actions={
          <>
            <Link to={`/admin/payments?merchant_id=${m.id}`} className="btn btn-secondary">
              View payments
            </Link>
            <Link to={`/admin/payment-links?merchant_id=${m.id}`} className="btn btn-secondary">
              Payment links
            </Link>
          </>
        }
        deactivate={{
          title: 'Deactivate this merchant?',
          explain: (
            <p>
              Every request with <strong>{m.name}</strong>'s keys will be refused at once, until you reactivate it. Its payments and keys are kept.
            </p>
          ),
          done: 'The merchant is inactive: its keys are refused.',
        }}
        reactivated="The merchant is active again: its keys work."
      />
      {!m.active && <Notice kind="warning">This merchant is inactive: every request with its keys is refused (INVALID_MERCHANT_KEY) until it is reactivated.</Notice>}
      <MerchantTestModeNotice merchant={m} accounts={accounts.data} />

      <div className="grid-2">
        <div className="stack">
          <SettingsCard
            key={m.updated_at}
            label="Merchant settings"
            original={initialValues(m)}
            keys={SETTINGS}
            check={validateMerchant}
            fieldErrors={apiFieldErrors}
            onSave={(body) => patch(body, 'Changes saved.')}
            fields={(values, errors, onChange) => (
              <MerchantFields idPrefix="merchant" values={values} errors={errors} onChange={onChange} providers={builtInProviders(catalogue.data)} />
            )}
          >
            <p className="muted small">
              Created {formatDate(m.created_at)} · updated {formatDate(m.updated_at)}
            </p>
          </SettingsCard>
          <RefundAfterCloseCard
            merchant={m}
            busy={busy === 'refund-after-close'}
            onChange={(on) =>
              void run('refund-after-close', () =>
                patch(
                  { refund_after_close: on },
                  on ? 'Money received after close is now refunded automatically, in full.' : 'Money received after close is now left to the operator to refund.',
                ),
              )
            }
          />
          <MerchantAccounts
            merchant={m}
            accounts={accounts.data}
            loadError={accounts.error}
            catalogue={catalogue.data}
            onSave={(ids) => patch({ provider_accounts: ids }, 'The provider accounts are saved: payments try them in this order.')}
          />
        </div>

        <div className="stack">
          <Card
            title="API keys"
            actions={
              <Button kind="primary" busy={busy === 'issue'} onClick={() => void issueKey()}>
                Issue key
              </Button>
            }
          >
            <Notice>{keys.error}</Notice>
            {keys.data?.length === 0 && <Empty>No keys yet. Issue one and give it to the merchant: it goes in the X-Merchant-Key header.</Empty>}
            {keys.data && keys.data.length > 0 && (
              <table className="table table-cards" aria-label="API keys">
                <thead>
                  <tr>
                    <th>Prefix</th>
                    <th>Created</th>
                    <th>Last used</th>
                    <th>Status</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {keys.data.map((k) => (
                    <tr key={k.id}>
                      <td data-label="Prefix" className="mono">
                        {k.prefix}…
                      </td>
                      <td data-label="Created">{formatDate(k.created_at)}</td>
                      <td data-label="Last used">
                        <LastUsed iso={k.last_used_at} />
                      </td>
                      <td data-label="Status">{k.revoked_at ? <Badge value="revoked" label={`revoked ${formatDate(k.revoked_at)}`} /> : <Badge value="active" />}</td>
                      <td className="actions-cell">
                        {!k.revoked_at && (
                          <Button kind="danger" onClick={() => setDialog({ kind: 'revoke', key: k })}>
                            Revoke
                          </Button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {activeKeys.length > 1 && (
              <p className="muted small">
                Several keys are active: revoke the old one once the merchant has switched to the new one and its last use stops moving (it is recorded to the minute).
              </p>
            )}
          </Card>

          <Card title="Webhook signing secret">
            <p>
              {m.has_webhook_signing_secret ? (
                <>
                  <Badge value="active" label="set" /> Events to this merchant are signed (Standard Webhooks headers).
                </>
              ) : (
                <>
                  <Badge value="inactive" label="not set" /> Events are sent unsigned.
                </>
              )}
            </p>
            <div className="button-row">
              {m.has_webhook_signing_secret ? (
                <>
                  <Button onClick={() => setDialog({ kind: 'rotate-secret' })}>Rotate secret</Button>
                  <Button kind="danger" onClick={() => setDialog({ kind: 'remove-secret' })}>
                    Remove secret
                  </Button>
                </>
              ) : (
                <Button kind="primary" busy={busy === 'secret'} onClick={() => void run('secret', generateSecret)}>
                  Generate secret
                </Button>
              )}
            </div>
          </Card>

          <Card title="Webhook endpoint">
            <TestEvent merchantId={m.id} merchantName={m.name} />
          </Card>
        </div>
      </div>

      {dialog?.kind === 'revoke' && (
        <Confirm
          title="Revoke this key?"
          confirmLabel="Revoke key"
          onClose={() => setDialog(undefined)}
          onConfirm={async () => {
            await api('DELETE', `/merchants/${m.id}/api-keys/${dialog.key.id}`);
            merchant.setDone(`Key ${dialog.key.prefix}… is revoked.`);
            await keys.reload();
          }}
        >
          <p>
            The key <code>{dialog.key.prefix}…</code> stops working immediately: anything still using it gets 401. This cannot be undone.
          </p>
        </Confirm>
      )}
      {dialog?.kind === 'rotate-secret' && (
        <Confirm title="Rotate the signing secret?" confirmLabel="Rotate secret" onClose={() => setDialog(undefined)} onConfirm={generateSecret}>
          <p>A new secret replaces the current one at once: events from now on are signed with the new secret, so the merchant must switch to it to keep verifying them.</p>
        </Confirm>
      )}
      {dialog?.kind === 'remove-secret' && (
        <Confirm
          title="Remove the signing secret?"
          confirmLabel="Remove secret"
          onClose={() => setDialog(undefined)}
          onConfirm={() => patch({ webhook_signing_secret: null }, 'The signing secret is removed: events are sent unsigned.')}
        >
          <p>Events to this merchant will be sent without a signature, so it can no longer tell them from forged ones.</p>
        </Confirm>
      )}
      {dialog?.kind === 'reveal-key' && <SecretReveal title="New API key" what="API key" value={dialog.key.key} onClose={() => setDialog(undefined)} />}
      {dialog?.kind === 'reveal-secret' && <SecretReveal title="New webhook signing secret" what="signing secret" value={dialog.secret} onClose={() => setDialog(undefined)} />}
    </>
  );
}

/**
 * A key's last use, recorded to the minute: how long ago (what rotation asks: is it still in use?),
 * the date on hover. A time a little ahead of this browser's clock is "just now", not "in 5 s".
 */
export function LastUsed({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">never</span>;
  const ago = Date.now() - new Date(iso).getTime();
  return <span title={formatDate(iso)}>{ago < 60_000 ? 'within the last minute' : relative(iso)}</span>;
}

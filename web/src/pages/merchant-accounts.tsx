import { useEffect, useRef, useState } from 'react';
import { Link } from '../router';
import type { Merchant, ProviderAccount, ProviderDescriptor } from '../types';
import { Badge, Button, Card, Notice, useSubmit } from '../ui';
import { EnvironmentBadge, providerLabel } from './provider-account-form';
import { CircuitBadge } from './account-health';

/** The routing rule in one line (docs/providers.md, Routing), under the list it applies to. */
const ROUTING_ORDER = 'Routing order: payments try the first account first, and move down the list only when one refuses, times out, fails (5xx) or has its circuit open.';

function AccountName({ id, account, catalogue }: { id: string; account?: ProviderAccount; catalogue?: ProviderDescriptor[] }) {
  if (!account) return <span className="mono small">{id}</span>;
  return (
    <span className="account-name">
      <Link to={`/admin/provider-accounts/${account.id}`}>{account.name}</Link> <span className="muted small">{providerLabel(catalogue, account.provider)}</span>{' '}
      <EnvironmentBadge environment={account.environment} />
      {!account.active && (
        <>
          {' '}
          <Badge value="inactive" />
        </>
      )}
      {/* A closed circuit is the normal case: only one that makes payments skip or test the account is worth a badge here. */}
      {account.health && account.health.circuit !== 'closed' && (
        <>
          {' '}
          <CircuitBadge health={account.health} />
        </>
      )}
    </span>
  );
}

/**
 * The provider accounts a merchant's payments go through, in the order they are tried (the API
 * takes active accounts only; docs/providers.md). With none, the merchant's `provider` serves it.
 */
export function MerchantAccounts({
  merchant,
  accounts,
  loadError,
  catalogue,
  onSave,
}: {
  merchant: Merchant;
  accounts?: ProviderAccount[];
  loadError?: string;
  /** For the providers' labels: without it, their names are shown. */
  catalogue?: ProviderDescriptor[];
  onSave: (ids: string[]) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState<string[]>();
  // After a move, focus stays on the moved account's button (or its other one, at an end), and the new place is announced.
  const [moved, setMoved] = useState<{ id: string; by: -1 | 1; text: string }>();
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (!moved || !list.current) return;
    const buttons = Array.from(list.current.querySelectorAll<HTMLButtonElement>('button[data-move]'));
    const wanted = [moved.by, -moved.by].map((by) => buttons.find((button) => button.dataset.move === `${moved.id}:${by}`));
    wanted.find((button) => button && !button.disabled)?.focus();
  }, [moved]);
  const byId = new Map((accounts ?? []).map((account) => [account.id, account]));
  const chosen = merchant.provider_accounts;
  // An account deactivated since it was chosen stays in the merchant's list, but the API takes active ones only.
  const usable = (id: string) => byId.get(id)?.active === true;

  const saving = useSubmit({
    send: async () => {
      if (!editing) return;
      await onSave(editing);
      setEditing(undefined);
    },
  });

  const start = () => {
    setMoved(undefined);
    setEditing(chosen.filter(usable));
    saving.reset();
  };
  const move = (index: number, by: -1 | 1) => {
    if (!editing) return;
    const next = [...editing];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    setEditing(next);
    const id = next[index + by]!;
    setMoved({ id, by, text: `${byId.get(id)?.name ?? id} is now number ${index + by + 1} of ${next.length}.` });
  };
  const fallback = merchant.provider ? (
    <>
      the <code>{merchant.provider}</code> provider
    </>
  ) : (
    "the gateway's default provider"
  );

  if (!editing) {
    return (
      <Card
        title="Provider accounts"
        actions={
          <Button onClick={start} disabled={!accounts}>
            {chosen.length > 0 ? 'Change accounts' : 'Choose accounts'}
          </Button>
        }
      >
        <Notice>{loadError}</Notice>
        {chosen.length === 0 ? (
          <p className="muted">None chosen: payments go through {fallback}, with its built-in configuration.</p>
        ) : (
          <>
            <ol className="account-order" aria-label="Provider accounts in order">
              {chosen.map((id) => (
                <li key={id}>
                  <AccountName id={id} account={byId.get(id)} catalogue={catalogue} />
                </li>
              ))}
            </ol>
            <p className="muted small">{ROUTING_ORDER}</p>
          </>
        )}
      </Card>
    );
  }

  const available = (accounts ?? []).filter((account) => account.active && !editing.includes(account.id));
  const dropped = chosen.filter((id) => !usable(id));
  return (
    <Card title="Provider accounts">
      {editing.length === 0 ? (
        <p className="muted">No account chosen: payments will go through {fallback}.</p>
      ) : (
        <ol className="account-order account-order-editing" aria-label="Chosen provider accounts" ref={list}>
          {editing.map((id, index) => {
            const name = byId.get(id)?.name ?? id;
            return (
              <li key={id}>
                <AccountName id={id} account={byId.get(id)} catalogue={catalogue} />
                <span className="order-buttons">
                  <Button kind="ghost" aria-label={`Move ${name} up`} data-move={`${id}:-1`} disabled={index === 0} onClick={() => move(index, -1)}>
                    ↑
                  </Button>
                  <Button kind="ghost" aria-label={`Move ${name} down`} data-move={`${id}:1`} disabled={index === editing.length - 1} onClick={() => move(index, 1)}>
                    ↓
                  </Button>
                  <Button kind="ghost" aria-label={`Remove ${name}`} onClick={() => setEditing(editing.filter((other) => other !== id))}>
                    Remove
                  </Button>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {editing.length > 1 && <p className="muted small">{ROUTING_ORDER}</p>}
      <p className="sr-only" aria-live="polite">
        {moved?.text}
      </p>
      {available.length > 0 ? (
        <div className="field">
          <label htmlFor="merchant-add-account">Add an account</label>
          <select id="merchant-add-account" value="" onChange={(e) => e.target.value && setEditing([...editing, e.target.value])}>
            <option value="">Choose an active account…</option>
            {available.map((account) => (
              <option key={account.id} value={account.id}>
                {account.name} ({providerLabel(catalogue, account.provider)}, {account.environment})
              </option>
            ))}
          </select>
        </div>
      ) : (
        <p className="muted small">
          {(accounts ?? []).some((account) => account.active) ? (
            'Every active account is chosen.'
          ) : (
            <>
              There is no active provider account to choose: <Link to="/admin/provider-accounts">add one</Link>.
            </>
          )}
        </p>
      )}
      {dropped.length > 0 && (
        <Notice kind="warning">
          {dropped.length === 1 ? 'One account in the list is inactive or gone' : `${dropped.length} accounts in the list are inactive or gone`}: saving removes{' '}
          {dropped.length === 1 ? 'it' : 'them'}.
        </Notice>
      )}
      <Notice>{saving.failure}</Notice>
      <div className="button-row">
        <Button kind="primary" busy={saving.busy} onClick={() => void saving.submit()}>
          Save accounts
        </Button>
        <Button kind="ghost" onClick={() => setEditing(undefined)} disabled={saving.busy}>
          Cancel
        </Button>
      </div>
    </Card>
  );
}

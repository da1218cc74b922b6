import { formatDate } from '../format';
import { Link } from '../router';
import type { AttemptOutcome, OrphanStatus, PaymentAttempt, ProviderAccount, ProviderDescriptor, Refund } from '../types';
import { Badge, Card, Notice } from '../ui';
import { OrphanRefund, orphanRefund } from './payment-refunds';
import { EnvironmentBadge, providerLabel } from './provider-account-form';

/**
 * The provider accounts a payment's create went through, in order (docs/providers.md, Routing): which one
 * charged, why each other was left, and what became of a charge an ambiguous one may have left at
 * its PSP (the orphan a background job cancels).
 */

/** Each outcome in words; the badge tone is never the only sign of it. */
const OUTCOMES: Record<AttemptOutcome, { tone: string; label: string }> = {
  charged: { tone: 'paid', label: 'charged' },
  refused: { tone: 'cancelled', label: 'refused, moved on' },
  circuit_open: { tone: 'cancelled', label: 'skipped: circuit open' },
  ambiguous: { tone: 'pending', label: 'no clear answer, moved on' },
  rejected: { tone: 'failed', label: 'rejected the payment' },
};

const ORPHANS: Record<OrphanStatus, { tone: string; label: string }> = {
  pending: { tone: 'pending', label: 'orphan: being cancelled' },
  cancelled: { tone: 'cancelled', label: 'orphan cancelled' },
  absent: { tone: 'cancelled', label: 'no orphan at the PSP' },
  paid: { tone: 'failed', label: 'orphan PAID: refund it' },
  failed: { tone: 'failed', label: 'orphan: cancelling failed' },
};

export function outcomeLabel(outcome: AttemptOutcome): string {
  return OUTCOMES[outcome]?.label ?? outcome.replace(/_/g, ' ');
}

export function orphanLabel(status: OrphanStatus): string {
  return ORPHANS[status]?.label ?? `orphan: ${status}`;
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Whether any orphan is still to be settled: the page keeps itself current meanwhile. */
export function orphansPending(attempts: readonly PaymentAttempt[] | undefined): boolean {
  return attempts?.some((a) => a.orphan?.status === 'pending') ?? false;
}

function AccountCell({ attempt, accounts }: { attempt: PaymentAttempt; accounts?: readonly ProviderAccount[] }) {
  if (!attempt.account_id) return <span className="muted">built-in</span>;
  const name = accounts?.find((account) => account.id === attempt.account_id)?.name;
  // The charge's reference at the PSP, to look an orphan up there.
  const reference = attempt.provider_payment_id ?? attempt.txid;
  return (
    <div className="cell-stack">
      <Link to={`/admin/provider-accounts/${attempt.account_id}`}>{name ?? attempt.account_id}</Link>
      {reference && <div className="mono muted small">{reference}</div>}
    </div>
  );
}

/** A paid orphan that routing's refund returned (or is returning) needs no one. */
function settledByRefund(refund: Refund | undefined): boolean {
  return refund !== undefined && refund.status !== 'failed';
}

function OrphanState({ orphan, refund }: { orphan: NonNullable<PaymentAttempt['orphan']>; refund?: Refund }) {
  const { tone, label } =
    orphan.status === 'paid' && settledByRefund(refund)
      ? { tone: 'cancelled', label: 'orphan paid' }
      : (ORPHANS[orphan.status] ?? { tone: 'inactive', label: orphanLabel(orphan.status) });
  return (
    <div className="small">
      <Badge value={tone} label={label} />{' '}
      <span className="muted">
        {orphan.tries} {orphan.tries === 1 ? 'try' : 'tries'} · {formatDate(orphan.updated_at)}
      </span>
      {orphan.last_error && <div className="muted">{orphan.last_error}</div>}
      {refund && (
        <div className="orphan-refund">
          <OrphanRefund refund={refund} />
        </div>
      )}
    </div>
  );
}

/** Names an attempt in a sentence: "attempt 1 (Efí)". */
function attemptName(attempt: PaymentAttempt, accounts?: readonly ProviderAccount[]): string {
  const name = attempt.account_id ? (accounts?.find((account) => account.id === attempt.account_id)?.name ?? attempt.account_id) : `${attempt.provider}'s built-in account`;
  return `attempt ${attempt.attempt} (${name})`;
}

/**
 * The "Provider attempts" card. Nothing at all for a payment without attempts: one made before routing
 * existed, through a built-in provider, or by a gateway that does not send them.
 */
export function PaymentAttempts({
  attempts,
  refunds,
  accounts,
  catalogue,
}: {
  attempts?: PaymentAttempt[];
  /** The payment's refunds: routing's return paid orphans. */
  refunds?: readonly Refund[];
  accounts?: readonly ProviderAccount[];
  catalogue?: readonly ProviderDescriptor[];
}) {
  if (!attempts || attempts.length === 0) return null;
  // An orphan the payer paid calls for the operator until routing's refund of it is under way or done.
  const paidOrphans = attempts.filter((a) => a.orphan?.status === 'paid' && !settledByRefund(orphanRefund(refunds, a)));
  return (
    <Card title="Provider attempts">
      <p className="muted small">
        The provider accounts this payment was offered to, in order: the merchant's routing order, from the first again on each retry of its Idempotency-Key.
      </p>
      {paidOrphans.length > 0 && (
        <Notice kind="warning">
          <strong>Action needed:</strong> the payer paid a charge that was abandoned ({paidOrphans.map((a) => attemptName(a, accounts)).join(', ')}); refund it at the PSP.
        </Notice>
      )}
      <table className="table table-cards" aria-label="Provider attempts">
        <thead>
          <tr>
            <th>#</th>
            <th>Account</th>
            <th>Provider</th>
            <th>Environment</th>
            <th>Outcome</th>
            <th>Upstream status</th>
            <th>Duration</th>
            <th>Error</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((a) => {
            const outcome = OUTCOMES[a.outcome] ?? { tone: 'inactive', label: outcomeLabel(a.outcome) };
            return (
              <tr key={a.id} className={paidOrphans.includes(a) ? 'row-alert' : undefined}>
                <td data-label="Attempt">{a.attempt}</td>
                <td data-label="Account">
                  <AccountCell attempt={a} accounts={accounts} />
                </td>
                <td data-label="Provider">{providerLabel(catalogue, a.provider)}</td>
                <td data-label="Environment">
                  <EnvironmentBadge environment={a.environment} />
                </td>
                <td data-label="Outcome">
                  <div className="cell-stack">
                    <span>
                      <Badge value={outcome.tone} label={outcome.label} />
                    </span>
                    {a.orphan && <OrphanState orphan={a.orphan} refund={orphanRefund(refunds, a)} />}
                  </div>
                </td>
                <td data-label="Upstream status">{a.upstream_status ?? <span className="muted">—</span>}</td>
                <td data-label="Duration">{formatDuration(a.duration_ms)}</td>
                <td data-label="Error" className="small">
                  {a.error ?? <span className="muted">—</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Card>
  );
}

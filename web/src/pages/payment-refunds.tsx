import { formatDate, formatMoney, toCents } from '../format';
import type { PaymentAttempt, PaymentDetail, Refund, RefundOrigin, RefundStatus } from '../types';
import { Badge, Card } from '../ui';

/**
 * A payment's refunds (docs/api.md, Refunds and cancellation): what was given back, what is on its way, and what is
 * left. Refunds of origin `routing` return an orphan charge (an attempt's, not the payment's), so
 * they never count toward the payment's amounts.
 */

/** Each origin in a few words, and in a sentence for its title (the badge's tooltip). */
export const ORIGINS: Record<RefundOrigin, { label: string; title: string }> = {
  merchant: { label: 'merchant', title: 'Asked for by the merchant, through the API or this dashboard.' },
  psp: { label: 'at the PSP', title: "Made at the PSP's own portal or app, outside the gateway; the gateway learnt of it from the PSP." },
  med: {
    label: 'MED return',
    title: "A MED return: the payer's bank claimed the money back through Pix's special return mechanism (fraud or a failed sale), and the PSP returned it.",
  },
  routing: {
    label: 'routing (orphan charge)',
    title: 'The gateway returned a charge that routing had abandoned and the payer paid anyway. It is not part of this payment and does not count toward its refunded amount.',
  },
};

const STATUSES: Record<RefundStatus, string> = { pending: 'pending', succeeded: 'refunded', failed: 'failed' };

export function RefundStatusBadge({ status }: { status: RefundStatus }) {
  return <Badge value={status} label={STATUSES[status] ?? status} />;
}

export function OriginBadge({ origin }: { origin: RefundOrigin }) {
  const { label, title } = ORIGINS[origin] ?? { label: origin, title: origin };
  return (
    <span className="badge badge-origin" title={title}>
      {label}
    </span>
  );
}

/** The payment's own refunds: all but routing's, which return another charge. */
const own = (refunds: readonly Refund[]) => refunds.filter((r) => r.origin !== 'routing');

/** Centavos on their way back to the payer: refunds asked for and not settled. */
export function pendingCents(payment: Pick<PaymentDetail, 'refunds'>): number {
  return own(payment.refunds ?? [])
    .filter((r) => r.status === 'pending')
    .reduce((sum, r) => sum + toCents(r.amount), 0);
}

/** Centavos that can still be refunded: the amount, less what was refunded and what is pending (as the API counts it). */
export function leftCents(payment: Pick<PaymentDetail, 'amount' | 'refundedAmount' | 'refunds'>): number {
  return Math.max(0, toCents(payment.amount) - toCents(payment.refundedAmount ?? 0) - pendingCents(payment));
}

/** The refund that returned an attempt's orphan charge, if routing made one. */
export function orphanRefund(refunds: readonly Refund[] | undefined, attempt: Pick<PaymentAttempt, 'id'>): Refund | undefined {
  return refunds?.filter((r) => r.origin === 'routing' && r.attemptId === attempt.id).pop();
}

/** What became of a refund the operator asked for, in a sentence for the page's notice. */
export function refundOutcome(refund: Pick<Refund, 'amount' | 'status' | 'failureReason'>): { ok: boolean; text: string } {
  const amount = formatMoney(refund.amount);
  switch (refund.status) {
    case 'pending':
      return { ok: true, text: `Refund of ${amount} asked for; the PSP settles it shortly, and this page follows it.` };
    case 'succeeded':
      return { ok: true, text: `${amount} refunded to the payer.` };
    case 'failed':
      return {
        ok: false,
        text: `The PSP did not carry out the refund of ${amount}${refund.failureReason ? `: ${refund.failureReason.replace(/\.$/, '')}` : ''}. The amount can be refunded again.`,
      };
  }
}

/** An orphan's refund in the attempts card: a badge that says it is a refund, then the amount (and why it failed). */
export function OrphanRefund({ refund }: { refund: Refund }) {
  const label = { pending: 'refund pending', succeeded: 'refunded', failed: 'refund failed' }[refund.status] ?? refund.status;
  const amount = formatMoney(refund.amount);
  return (
    <>
      <Badge value={refund.status} label={label} />{' '}
      <span>
        {refund.status === 'failed'
          ? `${amount}${refund.failureReason ? `: ${refund.failureReason}` : ''}`
          : refund.status === 'succeeded'
            ? `${amount} back to the payer`
            : amount}
      </span>
    </>
  );
}

function Summary({ payment }: { payment: PaymentDetail }) {
  const pending = pendingCents(payment);
  const left = leftCents(payment);
  const parts = [`${formatMoney(payment.refundedAmount)} of ${formatMoney(payment.amount)} refunded`];
  if (pending > 0) parts.push(`${formatMoney(pending / 100)} pending`);
  if (payment.status === 'paid' || payment.status === 'partially_refunded') parts.push(`${formatMoney(left / 100)} left`);
  return <p className="refund-summary">{parts.join(' · ')}</p>;
}

/** Where the refund stands, and why it failed when it did. */
function StatusCell({ refund }: { refund: Refund }) {
  return (
    <div className="cell-stack">
      <span>
        <RefundStatusBadge status={refund.status} />
      </span>
      {refund.status === 'failed' && refund.failureReason && <div className="small refund-failure">{refund.failureReason}</div>}
    </div>
  );
}

/** The "Refunds" card: nothing for a payment that never received money and has no refund. */
export function RefundsCard({ payment }: { payment: PaymentDetail }) {
  const refunds = payment.refunds ?? [];
  const received = payment.status === 'paid' || payment.status === 'partially_refunded' || payment.status === 'refunded';
  if (refunds.length === 0 && !received) return null;
  const attemptNumber = (id: string | null | undefined) => payment.attempts?.find((a) => a.id === id)?.attempt;
  return (
    <Card title="Refunds">
      <Summary payment={payment} />
      {refunds.length === 0 ? (
        <p className="muted small">No refund yet.</p>
      ) : (
        <table className="table table-cards" aria-label="Refunds">
          <thead>
            <tr>
              <th className="num">Amount</th>
              <th>Status</th>
              <th>Origin</th>
              <th>Reason</th>
              <th>Asked</th>
              <th>Settled</th>
              <th>PSP refund id</th>
            </tr>
          </thead>
          <tbody>
            {refunds.map((r) => (
              <tr key={r.id} className={r.status === 'failed' ? 'row-alert' : undefined}>
                <td data-label="Amount" className="num">
                  {formatMoney(r.amount)}
                </td>
                <td data-label="Status">
                  <StatusCell refund={r} />
                </td>
                <td data-label="Origin">
                  <OriginBadge origin={r.origin} />
                </td>
                <td data-label="Reason" className="small">
                  {r.origin === 'routing' ? (
                    <span className="muted">orphan charge of attempt {attemptNumber(r.attemptId) ?? '?'}</span>
                  ) : (
                    (r.reason ?? <span className="muted">—</span>)
                  )}
                </td>
                <td data-label="Asked" className="small nowrap">
                  {formatDate(r.createdAt)}
                </td>
                <td data-label="Settled" className="small nowrap">
                  {r.settledAt ? formatDate(r.settledAt) : <span className="muted">{r.status === 'pending' ? 'not yet' : '—'}</span>}
                </td>
                <td data-label="PSP refund id" className="small">
                  {r.providerRefundId ? <span className="mono break-anywhere">{r.providerRefundId}</span> : <span className="muted">—</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

import { useEffect, useState } from 'react';
import { api, ApiError } from '../api';
import { formatDate, formatMoney } from '../format';
import { Link } from '../router';
import type { InvariantCheck, InvariantMismatch } from '../types';
import { Badge, Button, Card, Notice, Spinner, messageOf, useLoad } from '../ui';

/** What each line compares, as the table names it. */
const FIELD_LABELS: Record<InvariantMismatch['field'], string> = {
  received: 'Received',
  returned: 'Returned',
  status: 'Status',
};

/** How often a running check is read again. */
const POLL_MS = 2000;

/**
 * The money invariant check on the overview (docs/operations.md, Money invariant check): the last
 * run, each payment whose PSP and gateway disagree on money as a line linking to the payment, and
 * "Run check now". Loaded on its own, so the overview's numbers and this card never wait on each other.
 */
export function MoneyInvariantCard() {
  const latest = useLoad(() => api<InvariantCheck>('GET', '/invariant-checks/latest').catch(noneYet), []);
  const [starting, setStarting] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const check = latest.data ?? undefined;
  const running = check?.status === 'running';

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void latest.reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [running, latest.reload]);

  async function runNow() {
    setStarting(true);
    setRefusal(undefined);
    try {
      latest.setData(await api<InvariantCheck>('POST', '/invariant-checks'));
    } catch (error) {
      setRefusal(messageOf(error));
      if (error instanceof ApiError && error.status === 409) void latest.reload();
    } finally {
      setStarting(false);
    }
  }

  return (
    <Card
      title="Money invariant"
      className={check && check.lines.length > 0 ? 'card-attention' : undefined}
      actions={
        <Button onClick={() => void runNow()} busy={starting || running} disabled={starting || running || (latest.data === undefined && latest.loading)}>
          {running ? 'Checking…' : 'Run check now'}
        </Button>
      }
    >
      <Notice onClose={refusal ? () => setRefusal(undefined) : undefined}>{refusal}</Notice>
      <Notice>{latest.error}</Notice>
      {latest.data === undefined && latest.loading && <Spinner />}
      {latest.data === null && (
        <p className="muted">No check has run yet. It runs every day; run one now to compare each payment of the last days with what its PSP says was paid and returned.</p>
      )}
      {check && <CheckSummary check={check} />}
      {check && check.lines.length > 0 && <MismatchLines lines={check.lines} total={check.mismatches} />}
    </Card>
  );
}

/** No run yet is an answer, not an error. */
function noneYet(error: unknown): null {
  if (error instanceof ApiError && error.status === 404) return null;
  throw error;
}

function CheckSummary({ check }: { check: InvariantCheck }) {
  const counted = `${check.checked} ${check.checked === 1 ? 'payment' : 'payments'} compared`;
  const aside = [
    check.unverifiable > 0 ? `${check.unverifiable} could not be fully compared (the PSP does not list refunds, or its provider does not run here)` : null,
    check.failed > 0 ? `${check.failed} could not be read from the PSP this time` : null,
  ].filter(Boolean);
  const when = `${check.trigger === 'daily' ? 'Daily check' : 'Check'} started ${formatDate(check.started_at)}`;
  return (
    <>
      {check.status === 'running' && (
        <Notice kind="info">
          {when}: running, {counted} so far.
        </Notice>
      )}
      {check.status === 'failed' && (
        <Notice kind="warning">
          {when} ended early, after {counted}: {check.error}
        </Notice>
      )}
      {check.status === 'completed' && (
        <p className={check.mismatches > 0 ? '' : 'invariant-clean'}>
          {when}, finished {formatDate(check.finished_at)}: {counted},{' '}
          {check.mismatches === 0 ? (
            <strong>the PSPs and the gateway agree on every one.</strong>
          ) : (
            <strong>
              {check.mismatches} {check.mismatches === 1 ? 'mismatch' : 'mismatches'}.
            </strong>
          )}
        </p>
      )}
      {aside.length > 0 && <p className="muted small">{aside.join('; ')}.</p>}
    </>
  );
}

function MismatchLines({ lines, total }: { lines: InvariantMismatch[]; total: number }) {
  return (
    <>
      <p className="small">
        Each line is a payment whose money its PSP and the gateway see differently: open it, compare with the PSP&apos;s portal, and settle the difference (refund the payer, or
        have the missing refund recorded).
      </p>
      <table className="table table-cards" aria-label="Money invariant mismatches">
        <thead>
          <tr>
            <th>Payment</th>
            <th>What</th>
            <th className="num">Gateway</th>
            <th className="num">PSP</th>
            <th>Why</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={`${line.payment_id}:${line.field}`}>
              <td data-label="Payment">
                {/* One child: on a phone the cell is a flex row beside its label, and the link and its line stack inside it. */}
                <div className="invariant-payment">
                  <Link to={`/admin/payments/${line.payment_id}`} className="mono">
                    {line.payment_id}
                  </Link>
                  <div className="muted small">
                    {line.provider} · <Badge value={line.gateway_status} /> at the gateway, <Badge value={line.psp_status} /> at the PSP
                  </div>
                </div>
              </td>
              <td data-label="What">{FIELD_LABELS[line.field]}</td>
              <td data-label="Gateway" className="num">
                {line.gateway_amount === null ? '—' : formatMoney(line.gateway_amount)}
              </td>
              <td data-label="PSP" className="num">
                {line.psp_amount === null ? '—' : formatMoney(line.psp_amount)}
              </td>
              <td data-label="Why" className="invariant-note">
                {line.note}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {total > lines.length && (
        <p className="muted small">
          Showing the first {lines.length} of {total} lines.
        </p>
      )}
    </>
  );
}

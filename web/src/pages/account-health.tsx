import { formatDate } from '../format';
import type { AccountHealth } from '../types';
import { Badge } from '../ui';

/**
 * A provider account's health as routing sees it (docs/providers.md, Routing): its circuit breaker and
 * its failed attempts of the last hour. The circuit is the answering process's own breaker, so
 * another gateway process may hold a different one. The state is written out, not only coloured.
 */
const CIRCUIT: Record<AccountHealth['circuit'], { tone: string; label: string; explain: string }> = {
  closed: { tone: 'active', label: 'circuit closed', explain: 'Payments are sent to this account.' },
  half_open: { tone: 'pending', label: 'circuit half-open', explain: 'The next payment tests this account again; a failure opens the circuit once more.' },
  open: { tone: 'failed', label: 'circuit open', explain: 'Payments skip this account for now and go to the next one in each merchant’s order.' },
};

export function CircuitBadge({ health }: { health: AccountHealth }) {
  const circuit = CIRCUIT[health.circuit] ?? { tone: 'inactive', label: `circuit ${health.circuit}`, explain: '' };
  return (
    <span title={circuit.explain || undefined}>
      <Badge value={circuit.tone} label={circuit.label} />
    </span>
  );
}

export function failuresText(count: number): string {
  if (count === 0) return 'no failures in the last hour';
  return `${count} failure${count === 1 ? '' : 's'} in the last hour`;
}

/** For a table cell: the circuit and the failures of the last hour. Nothing when the gateway sends no health (an older one). */
export function HealthSummary({ health }: { health?: AccountHealth }) {
  if (!health) return null;
  return (
    <span className="health-summary">
      <CircuitBadge health={health} /> <span className={`small${health.recent_failures > 0 ? '' : ' muted'}`}>{failuresText(health.recent_failures)}</span>
    </span>
  );
}

/** For an account's page: the circuit explained, the counts, and the last failure with its error. */
export function HealthDetails({ health }: { health: AccountHealth }) {
  return (
    <>
      <dl className="fields">
        <dt>Circuit</dt>
        <dd>
          <CircuitBadge health={health} /> <span className="muted small prose">{CIRCUIT[health.circuit]?.explain}</span>
        </dd>
        <dt>Failures in a row</dt>
        <dd>{health.consecutive_failures}</dd>
        <dt>Last hour</dt>
        <dd>{failuresText(health.recent_failures)}</dd>
        <dt>Last failure</dt>
        <dd>{health.last_failure_at ? formatDate(health.last_failure_at) : <span className="muted">none</span>}</dd>
        {health.last_error && (
          <>
            <dt>Last error</dt>
            <dd className="prose">{health.last_error}</dd>
          </>
        )}
      </dl>
      <p className="muted small">
        The circuit opens after 5 failures in a row and lets one payment test the account again 30 s later. It is this gateway process's own: another process keeps its own count.
        Failures are the attempts that did not charge, from every process.
      </p>
    </>
  );
}

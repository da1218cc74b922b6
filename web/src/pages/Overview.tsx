import { api, query } from '../api';
import { formatDay, formatMoney, formatPercent, localMidnight } from '../format';
import { Link } from '../router';
import { PAYMENT_STATUSES, type Stats } from '../types';
import { Badge, Button, Card, Notice, PageHeader, Spinner, useLoad } from '../ui';
import { MoneyInvariantCard } from './money-invariant';
import { AfterCloseOverview } from './paid-after-close';

export function Overview() {
  const { data: stats, error, loading, reload } = useLoad(() => api<Stats>('GET', `/stats${query({ day_start: localMidnight().toISOString() })}`), []);

  return (
    <>
      <PageHeader
        title="Overview"
        subtitle="Today is counted from your local midnight."
        actions={
          <Button onClick={() => void reload()} busy={loading && !!stats}>
            Refresh
          </Button>
        }
      />
      <Notice>{error}</Notice>
      <AfterCloseOverview />
      <MoneyInvariantCard />
      {!stats && loading && <Spinner />}
      {stats && (
        <>
          <div className="metrics">
            <Metric label="Payments today" value={String(stats.today.payments)} />
            <Metric label="Paid today" value={formatMoney(stats.today.paid_volume)} note={`${stats.today.paid_count} paid`} />
            <Metric label="Payments, 7 days" value={String(stats.last_7_days.payments)} />
            <Metric label="Paid, 7 days" value={formatMoney(stats.last_7_days.paid_volume)} note={`${stats.last_7_days.paid_count} paid`} />
            <Metric
              label="Failed deliveries"
              value={String(stats.deliveries.failed)}
              tone={stats.deliveries.failed > 0 ? 'bad' : undefined}
              note={<Link to="/admin/deliveries">{stats.deliveries.pending} pending · review</Link>}
            />
          </div>
          <div className="grid-2">
            <Card title="Paid volume, last 7 days">
              <VolumeChart daily={stats.daily} />
            </Card>
            <Card title="Payments by status (7 days)">
              <StatusBars byStatus={stats.by_status} />
            </Card>
          </div>
          <Card title={`Providers, last ${stats.provider_window_hours} h`}>
            <table className="table">
              <thead>
                <tr>
                  <th>Provider</th>
                  <th className="num">Payments created</th>
                  <th className="num">Failed create attempts</th>
                  <th className="num">Error rate</th>
                </tr>
              </thead>
              <tbody>
                {stats.providers.map((p) => (
                  <tr key={p.provider}>
                    <td data-label="Provider">{p.provider}</td>
                    <td data-label="Payments created" className="num">
                      {p.payments}
                    </td>
                    <td data-label="Failed attempts" className="num">
                      {p.failed_attempts}
                    </td>
                    <td data-label="Error rate" className="num">
                      <span className={`rate ${p.error_rate === null ? '' : p.error_rate >= 0.05 ? 'rate-bad' : p.error_rate > 0 ? 'rate-warn' : 'rate-good'}`}>
                        {formatPercent(p.error_rate)}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="muted small">Error rate: create attempts that ended without a payment (provider errors, timeouts), out of all create attempts.</p>
          </Card>
        </>
      )}
    </>
  );
}

function Metric({ label, value, note, tone }: { label: string; value: string; note?: React.ReactNode; tone?: 'bad' }) {
  return (
    <div className={`metric${tone ? ` metric-${tone}` : ''}`}>
      <div className="metric-label">{label}</div>
      <div className="metric-value">{value}</div>
      {note && <div className="metric-note">{note}</div>}
    </div>
  );
}

/** Seven bars of paid volume, the payment count under each day. HTML, so labels stay readable on a phone. */
function VolumeChart({ daily }: { daily: Stats['daily'] }) {
  const max = Math.max(...daily.map((d) => d.paid_volume), 0);
  return (
    <figure className="chart" role="img" aria-label="Paid volume per day for the last 7 days">
      <div className="chart-bars">
        {daily.map((day, i) => (
          <div key={day.day_start} className="chart-col" title={`${formatDay(day.day_start)}: ${formatMoney(day.paid_volume)} paid, ${day.payments} payments created`}>
            <div className="chart-plot">
              <span className="chart-value">{day.paid_volume > 0 ? compactMoney(day.paid_volume) : ''}</span>
              <div
                className={i === daily.length - 1 ? 'chart-bar chart-bar-today' : 'chart-bar'}
                style={{ height: day.paid_volume === 0 ? '0' : `max(3px, ${(day.paid_volume / max) * 100}%)` }}
              />
            </div>
            <div className="chart-label">{formatDay(day.day_start)}</div>
            <div className="chart-sublabel">
              {day.payments}
              <span className="chart-unit"> {day.payments === 1 ? 'payment' : 'payments'}</span>
            </div>
          </div>
        ))}
      </div>
      {max === 0 && <figcaption className="muted small">No payments were paid in the last 7 days.</figcaption>}
    </figure>
  );
}

function compactMoney(value: number): string {
  if (value >= 1_000_000) return `R$ ${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 1_000) return `R$ ${(value / 1000).toFixed(value >= 10_000 ? 0 : 1)}k`;
  return formatMoney(value);
}

function StatusBars({ byStatus }: { byStatus: Stats['by_status'] }) {
  const total = PAYMENT_STATUSES.reduce((sum, s) => sum + (byStatus[s] ?? 0), 0);
  if (total === 0) return <p className="muted">No payments were created in the last 7 days.</p>;
  return (
    <ul className="status-bars">
      {PAYMENT_STATUSES.map((status) => {
        const count = byStatus[status] ?? 0;
        return (
          <li key={status}>
            <Link to={`/admin/payments?status=${status}`} className="status-bar-label">
              <Badge value={status} />
            </Link>
            <div className="status-bar-track" aria-hidden="true">
              <div className={`status-bar-fill fill-${status}`} style={{ width: `${(count / total) * 100}%` }} />
            </div>
            <span className="status-bar-count">{count}</span>
          </li>
        );
      })}
    </ul>
  );
}

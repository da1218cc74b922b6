import { formatDate, formatDateSeconds, formatMoney } from '../format';
import type { RecurrenceEvent, RecurringCharge } from '../types';
import { Badge, Button, Card, Empty } from '../ui';
import { CHARGE_SIMULATIONS, simulatableCharge, type useSimulation } from './recurrence-actions';
import { formatCalendarDay } from './recurrence-format';

/** A recurrence's charges, oldest due date first, each with its settlement attempts; with a test PSP, Settle and Fail. */
export function ChargesCard({ charges, simulation }: { charges: RecurringCharge[]; simulation?: ReturnType<typeof useSimulation> }) {
  return (
    <Card title="Charges">
      {charges.length === 0 ? (
        <Empty>No charge yet: the merchant creates one per cycle once the payer has authorized.</Empty>
      ) : (
        <table className="table table-cards" aria-label="Charges">
          <thead>
            <tr>
              <th>Due</th>
              <th>Charge</th>
              <th className="num">Amount</th>
              <th>Status</th>
              <th>Attempts</th>
              {simulation && <th />}
            </tr>
          </thead>
          <tbody>
            {charges.map((c) => (
              <tr key={c.id}>
                <td data-label="Due">{formatCalendarDay(c.dueDate)}</td>
                <td data-label="Charge">
                  <div className="cell-stack">
                    <span>{c.description ?? <span className="muted">no description</span>}</span>
                    <div className="mono muted small">{c.id}</div>
                    {c.endToEndId && <div className="mono muted small">{c.endToEndId}</div>}
                  </div>
                </td>
                <td data-label="Amount" className="num">
                  {formatMoney(c.amount)}
                </td>
                <td data-label="Status">
                  <div className="cell-stack">
                    <span>
                      <Badge value={c.status} />
                    </span>
                    {c.paidAt && <div className="muted small">{formatDateSeconds(c.paidAt)}</div>}
                    {c.failureReason && <div className="muted small">{c.failureReason}</div>}
                  </div>
                </td>
                <td data-label="Attempts" className="wrap">
                  <Attempts attempts={c.attempts} />
                </td>
                {simulation && (
                  <td className="actions-cell">
                    {simulatableCharge(c) && (
                      <span className="button-pair">
                        {CHARGE_SIMULATIONS.map((s) => (
                          <Button
                            key={s.action}
                            aria-label={`${s.label} ${c.id}`}
                            busy={simulation.isBusy(c.id, s.action)}
                            disabled={!!simulation.busy}
                            onClick={() => void simulation.run({ kind: 'charge', id: c.id, action: s.action }, `${s.label} ${c.description ?? c.id}`)}
                          >
                            {s.label}
                          </Button>
                        ))}
                      </span>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function Attempts({ attempts }: { attempts: RecurringCharge['attempts'] }) {
  if (attempts.length === 0) return <span className="muted">none yet</span>;
  return (
    <ol className="attempt-list">
      {attempts.map((a, i) => (
        <li key={`${a.date}-${i}`}>
          {formatCalendarDay(a.date)} <Badge value={a.status} />
          {a.reason && <span className="muted small"> {a.reason}</span>}
        </li>
      ))}
    </ol>
  );
}

const FORWARD_TEXT: Record<string, string> = { queued: 'forwarded to the merchant', no_webhook_url: 'not forwarded: no webhook URL', none: 'not forwarded' };

/** What happened to the recurrence and its charges, oldest first, and whether the merchant was told. */
export function HistoryCard({ events }: { events: RecurrenceEvent[] }) {
  return (
    <Card title="History">
      {events.length === 0 ? (
        <Empty>Nothing has happened since it was created.</Empty>
      ) : (
        <ol className="timeline" aria-label="History">
          {events.map((e) => (
            <li key={e.id} className={`timeline-item${e.forward === 'none' ? ' outcome-ignored' : ''}`}>
              <div className="timeline-dot" aria-hidden="true" />
              <div>
                <div>
                  <strong>{e.type}</strong>
                  {e.recurring_charge_id && <span className="mono muted small"> {e.recurring_charge_id}</span>}
                </div>
                <div className="small">
                  {e.from_status && e.to_status && e.from_status !== e.to_status && (
                    <>
                      {e.from_status.replace(/_/g, ' ')} → {e.to_status.replace(/_/g, ' ')} ·{' '}
                    </>
                  )}
                  {FORWARD_TEXT[e.forward] ?? e.forward} · via {e.source}
                </div>
                {e.note && <div className="small muted">{e.note}</div>}
                <div className="small muted">{formatDate(e.created_at)}</div>
              </div>
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

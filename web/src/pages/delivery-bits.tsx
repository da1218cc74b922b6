import { useState } from 'react';
import { api } from '../api';
import { formatDateSeconds, relative } from '../format';
import type { Delivery, DeliveryAttempt } from '../types';
import { Badge, Button, messageOf } from '../ui';

/** What happens next to a delivery, in words. */
export function deliveryState(d: Pick<Delivery, 'status' | 'delivered_at' | 'next_attempt_at'>, attempts: number): string {
  if (d.status === 'delivered') return `Delivered ${formatDateSeconds(d.delivered_at)}`;
  if (d.status === 'failed') return `Gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  return attempts === 0 ? `First attempt ${relative(d.next_attempt_at)}` : `Attempt ${attempts + 1} ${relative(d.next_attempt_at)}`;
}

export function lastResult(d: Pick<Delivery, 'last_status_code' | 'last_error'>): string {
  if (d.last_status_code && d.last_error) return d.last_error.includes(String(d.last_status_code)) ? d.last_error : `HTTP ${d.last_status_code}: ${d.last_error}`;
  if (d.last_status_code) return `HTTP ${d.last_status_code}`;
  return d.last_error ?? '—';
}

export function AttemptsTable({ attempts }: { attempts: DeliveryAttempt[] }) {
  if (attempts.length === 0) return <p className="muted small">No attempt yet.</p>;
  return (
    <table className="table table-compact table-cards" aria-label="Attempts">
      <thead>
        <tr>
          <th>#</th>
          <th>Time</th>
          <th>Status code</th>
          <th className="num">Latency</th>
          <th>Error</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((a) => (
          <tr key={`${a.attempt}-${a.attempted_at}`}>
            <td data-label="Attempt">{a.attempt}</td>
            <td data-label="Time">{formatDateSeconds(a.attempted_at)}</td>
            <td data-label="Status code">
              {a.status_code == null ? (
                <span className="muted">none</span>
              ) : (
                <Badge value={a.status_code >= 200 && a.status_code < 300 ? 'delivered' : 'failed'} label={String(a.status_code)} />
              )}
            </td>
            <td data-label="Latency" className="num">
              {a.latency_ms == null ? '—' : `${a.latency_ms} ms`}
            </td>
            <td data-label="Error" className="wrap">
              {a.error ?? <span className="muted">—</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Queues a new attempt of a delivery; tells the result in words. */
export function RedeliverButton({ delivery, onDone }: { delivery: Pick<Delivery, 'id'>; onDone: (message: string, ok: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  const redeliver = async () => {
    setBusy(true);
    try {
      await api('POST', `/webhook-deliveries/${delivery.id}/redeliver`);
      onDone('A new attempt is queued; it will be made within seconds.', true);
    } catch (e) {
      onDone(messageOf(e), false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button busy={busy} onClick={() => void redeliver()}>
      Redeliver
    </Button>
  );
}

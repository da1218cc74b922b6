import { useState } from 'react';
import { api } from '../api';
import { formatDateSeconds, relative } from '../format';
import type { Delivery, DeliveryAnswer, DeliveryAttempt, DeliveryDetail, TestEventResult } from '../types';
import { Badge, Button, Card, CopyButton, Empty, Notice, Spinner, messageOf, useLoad } from '../ui';

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

/**
 * A delivery's attempts. Given answers (the deliveries page's detail), a column shows the start of
 * what the endpoint answered; a payment's page lists attempts without it.
 */
export function AttemptsTable({ attempts }: { attempts: (DeliveryAttempt | DeliveryAnswer)[] }) {
  if (attempts.length === 0) return <p className="muted small">No attempt yet.</p>;
  const withAnswers = attempts.some((a) => 'response_excerpt' in a);
  return (
    <table className="table table-compact table-cards" aria-label="Attempts">
      <thead>
        <tr>
          <th>#</th>
          <th>Time</th>
          <th>Status code</th>
          <th className="num">Latency</th>
          <th>Error</th>
          {withAnswers && <th>Answer</th>}
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
            {withAnswers && (
              <td data-label="Answer" className="answer-cell">
                <AnswerExcerpt text={'response_excerpt' in a ? (a.response_excerpt ?? null) : null} />
              </td>
            )}
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

/** The start of an endpoint's answer body, as it came (at most 1 KiB, the gateway keeps no more). */
function AnswerExcerpt({ text }: { text: string | null }) {
  if (text === null) return <span className="muted">—</span>;
  if (text === '') return <span className="muted">empty body</span>;
  return <pre className="answer">{text}</pre>;
}

/** The exact JSON body a delivery sends, pretty-printed, with a button that copies it. */
export function Payload({ body }: { body: unknown }) {
  const text = JSON.stringify(body, null, 2);
  return (
    <div className="payload-block">
      <div className="payload-head">
        <h3>Payload</h3>
        <CopyButton text={text} label="Copy payload" />
      </div>
      <pre className="payload" aria-label="Payload">
        {text}
      </pre>
    </div>
  );
}

/** A delivery's body and each attempt's answer, loaded when an operator opens it. */
export function DeliveryDetails({ id }: { id: string }) {
  const detail = useLoad(() => api<DeliveryDetail>('GET', `/webhook-deliveries/${id}`), [id]);
  if (detail.error) return <Notice>{detail.error}</Notice>;
  if (!detail.data) return <Spinner />;
  const d = detail.data;
  return (
    <div className="delivery-details">
      <Payload body={d.body} />
      <div>
        <h3>Attempts</h3>
        <AttemptsTable attempts={d.attempt_history} />
      </div>
      <TestEvent merchantId={d.merchant_id} merchantName={d.merchant_name} />
    </div>
  );
}

/** What the endpoint said to a test event, in words, and what a delivery would make of it. */
function testEventSummary(r: TestEventResult): string {
  const took = r.latency_ms == null ? '' : ` in ${r.latency_ms} ms`;
  if (r.status_code == null) return `No answer${took}: ${r.error ?? 'unknown error'}`;
  return `Answered HTTP ${r.status_code}${took}${r.ok ? '' : ': not 2xx, so a delivery would count it as a failed attempt'}`;
}

/**
 * "Send test event": one signed `test.ping` to the merchant's webhook URL now, through the same
 * path as deliveries; the endpoint's answer is shown below the button. Nothing is stored.
 */
export function TestEvent({ merchantId, merchantName }: { merchantId: string; merchantName?: string }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TestEventResult>();
  const [error, setError] = useState<string>();
  const send = async () => {
    setBusy(true);
    setError(undefined);
    try {
      setResult(await api<TestEventResult>('POST', `/merchants/${merchantId}/test-event`));
    } catch (e) {
      setResult(undefined);
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="test-event">
      <div className="button-row">
        <Button busy={busy} onClick={() => void send()}>
          Send test event
        </Button>
        <span className="muted small">
          One test.ping event to {merchantName ?? 'the merchant'}'s webhook URL, sent as deliveries are (signed when a secret is set); not stored, never retried.
        </span>
      </div>
      <Notice>{error}</Notice>
      {result && (
        <div className="test-event-result" role="status" aria-label="Test event result">
          <p>
            <Badge value={result.ok ? 'delivered' : 'failed'} label={result.ok ? 'ok' : 'failed'} /> {testEventSummary(result)}
          </p>
          {result.url && (
            <p className="muted small">
              Sent to <span className="mono wrap">{result.url}</span>
            </p>
          )}
          {result.response_excerpt != null && <AnswerExcerpt text={result.response_excerpt} />}
        </div>
      )}
    </div>
  );
}

/**
 * The forwards of one payment's or recurrence's events, each with its attempts, and Redeliver for
 * those not delivered (`onRedelivered` says what came of it; the page reads itself again).
 */
export function DeliveriesCard({
  deliveries,
  noWebhookUrl,
  onRedelivered,
}: {
  deliveries: Delivery[];
  /** The merchant has no webhook URL: why nothing is forwarded. */
  noWebhookUrl: boolean;
  onRedelivered: (message: string, ok: boolean) => void;
}) {
  return (
    <Card title="Webhook deliveries">
      {deliveries.length === 0 ? (
        <Empty>{noWebhookUrl ? 'This merchant has no webhook URL: events are not forwarded.' : 'Nothing forwarded yet.'}</Empty>
      ) : (
        deliveries.map((d) => (
          <div key={d.id} className="delivery" data-testid="delivery">
            <div className="delivery-head">
              <div>
                <strong>{d.event_type}</strong> <Badge value={d.status} />
                <div className="muted small">
                  {deliveryState(d, d.attempt_count)} · last result: {lastResult(d)}
                </div>
              </div>
              {d.status !== 'delivered' && <RedeliverButton delivery={d} onDone={onRedelivered} />}
            </div>
            <AttemptsTable attempts={d.attempts ?? []} />
          </div>
        ))
      )}
    </Card>
  );
}

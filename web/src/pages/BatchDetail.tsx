import { useEffect, useState } from 'react';
import { api } from '../api';
import { formatDate } from '../format';
import { RecordUnloaded } from '../record';
import { Link } from '../router';
import {
  PAYMENT_BATCH_ITEM_STATUS_LABELS,
  PAYMENT_BATCH_STATUS_LABELS,
  type Merchant,
  type PaymentBatchDetail,
  type PaymentBatchItem,
  type PaymentBatchItemStatus,
} from '../types';
import { Badge, Button, Card, Empty, Notice, PageHeader, useLoad } from '../ui';
import { DeliveriesCard } from './delivery-bits';

/** Which items the table shows: all, or those of one status (the failures first of all, to act on). */
type Show = 'all' | PaymentBatchItemStatus;

/** How many rows the table shows at once: a batch holds up to 1,000. */
const ROWS = 100;

/**
 * One batch of due-date charges (docs/due-charges.md, Batches): what became of each charge, its
 * payment or why it was refused, and the `payment_batch.completed` delivery to the merchant. Read
 * again every 2 seconds while any charge is still being made.
 */
export function BatchDetail({ id }: { id: string }) {
  const batch = useLoad(() => api<PaymentBatchDetail>('GET', `/payment-batches/${encodeURIComponent(id)}`), [id]);
  const [merchant, setMerchant] = useState<Merchant>();
  const [notice, setNotice] = useState<{ text: string; ok: boolean }>();
  const [show, setShow] = useState<Show>();
  const [rows, setRows] = useState(ROWS);
  const b = batch.data;

  useEffect(() => {
    if (!b || merchant?.id === b.merchant_id) return;
    api<Merchant>('GET', `/merchants/${b.merchant_id}`).then(setMerchant, () => undefined);
  }, [b, merchant]);

  const waiting = b?.status === 'processing' || b?.deliveries.some((d) => d.status === 'pending');
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void batch.reload(), 2000);
    return () => clearInterval(timer);
  }, [waiting, batch.reload]);

  if (!b) return <RecordUnloaded title="Batch" error={batch.error} back={{ to: '/admin/payment-batches', label: 'Back to batches' }} />;

  // Failures first: a batch with any opens on them.
  const shown: Show = show ?? (b.counts.failed > 0 ? 'failed' : 'all');
  const items = shown === 'all' ? b.items : b.items.filter((item) => item.status === shown);
  const total = b.counts.created + b.counts.failed + b.counts.pending;
  const tabs: { show: Show; label: string; count: number }[] = [
    { show: 'all', label: 'All', count: total },
    { show: 'failed', label: 'Failed', count: b.counts.failed },
    { show: 'created', label: 'Created', count: b.counts.created },
    { show: 'pending', label: 'Pending', count: b.counts.pending },
  ];

  return (
    <>
      <div className="crumbs">
        <Link to="/admin/payment-batches">Batches</Link> / <span className="mono">{b.id}</span>
      </div>
      <PageHeader
        title={
          <>
            <span className="break-words">{b.description}</span> <Badge value={b.status} label={PAYMENT_BATCH_STATUS_LABELS[b.status].toLowerCase()} />
          </>
        }
        subtitle={
          <>
            {total} due-date {total === 1 ? 'charge' : 'charges'} ·{' '}
            {merchant ? <Link to={`/admin/merchants/${merchant.id}`}>{merchant.name}</Link> : <span className="mono">{b.merchant_id}</span>} · {b.provider}
          </>
        }
        actions={
          <Button onClick={() => void batch.reload()} busy={batch.loading && !waiting}>
            Refresh
          </Button>
        }
      />
      {b.counts.failed > 0 && (
        <Notice kind="warning">
          <strong>
            {b.counts.failed} of {total} {total === 1 ? 'charge' : 'charges'} {b.counts.failed === 1 ? 'was' : 'were'} not created.
          </strong>{' '}
          Each says why below; the merchant was told the same. Those payers have no charge to pay: the merchant sends them again, corrected, in a new batch or one by one.
        </Notice>
      )}
      {notice && (
        <Notice kind={notice.ok ? 'success' : 'error'} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}

      <div className="metrics metrics-4" aria-label="Charges by outcome">
        <Metric label="Charges" value={total} />
        <Metric label="Created" value={b.counts.created} />
        <Metric label="Failed" value={b.counts.failed} tone={b.counts.failed > 0 ? 'bad' : undefined} />
        <Metric label="Pending" value={b.counts.pending} note={b.status === 'processing' ? 'Being made at the PSP' : undefined} />
      </div>

      <Card title="Details">
        <dl className="fields">
          <dt>Batch id</dt>
          <dd className="mono">{b.id}</dd>
          <dt>Description</dt>
          <dd className="prose">{b.description}</dd>
          <dt>Provider</dt>
          <dd>{b.provider}</dd>
          <dt>Created</dt>
          <dd>{formatDate(b.createdAt)}</dd>
          <dt>Completed</dt>
          <dd>{b.completedAt ? formatDate(b.completedAt) : <span className="muted">not yet: charges are still being made</span>}</dd>
        </dl>
      </Card>

      <Card title="Charges">
        <div className="tabs tabs-compact" role="tablist" aria-label="Show charges">
          {/* An outcome no charge has is no tab: the row fits a phone. */}
          {tabs
            .filter((t) => t.show === 'all' || t.count > 0 || t.show === shown)
            .map((t) => (
              <button
                key={t.show}
                type="button"
                role="tab"
                aria-selected={t.show === shown}
                className={t.show === shown ? 'tab tab-active' : 'tab'}
                onClick={() => {
                  setShow(t.show);
                  setRows(ROWS);
                }}
              >
                {t.label} ({t.count})
              </button>
            ))}
        </div>
        {items.length === 0 ? (
          <Empty>No {shown === 'all' ? '' : `${PAYMENT_BATCH_ITEM_STATUS_LABELS[shown].toLowerCase()} `}charge.</Empty>
        ) : (
          <>
            <table className="table table-cards" aria-label="Charges">
              <thead>
                <tr>
                  <th className="num">#</th>
                  <th>External id</th>
                  <th>Status</th>
                  <th>Payment or error</th>
                </tr>
              </thead>
              <tbody>
                {items.slice(0, rows).map((item) => (
                  <ItemRow key={item.index} item={item} />
                ))}
              </tbody>
            </table>
            {items.length > rows && (
              <div className="pager">
                <Button onClick={() => setRows(rows + ROWS)}>
                  Show {Math.min(ROWS, items.length - rows)} more of {items.length - rows}
                </Button>
              </div>
            )}
          </>
        )}
      </Card>

      <DeliveriesCard
        deliveries={b.deliveries}
        noWebhookUrl={!!merchant && !merchant.webhook_url}
        onRedelivered={(text, ok) => {
          setNotice({ text, ok });
          void batch.reload();
        }}
      />
    </>
  );
}

function ItemRow({ item }: { item: PaymentBatchItem }) {
  return (
    <tr className={item.status === 'failed' ? 'row-alert' : undefined}>
      {/* The index as the merchant's request counts it, from 0 (`payments.3` in its errors). */}
      <td data-label="#" className="num">
        {item.index}
      </td>
      <td data-label="External id">
        <span className="mono small break-anywhere">{item.externalId}</span>
      </td>
      <td data-label="Status">
        <Badge value={item.status} label={PAYMENT_BATCH_ITEM_STATUS_LABELS[item.status].toLowerCase()} />
      </td>
      <td data-label={item.error ? 'Error' : 'Payment'} className="item-outcome">
        {item.paymentId ? (
          <Link to={`/admin/payments/${item.paymentId}`} className="mono small">
            {item.paymentId}
          </Link>
        ) : item.error ? (
          <div className="cell-stack">
            <span className="mono small error-text">{item.error.code}</span>
            <div className="small">{item.error.message}</div>
          </div>
        ) : (
          <span className="muted">being made</span>
        )}
      </td>
    </tr>
  );
}

function Metric({ label, value, note, tone }: { label: string; value: number; note?: string; tone?: 'bad' }) {
  return (
    <div className={`metric${tone ? ` metric-${tone}` : ''}`}>
      <div className="metric-label">{label}</div>
      <div className="metric-value">{value.toLocaleString('en')}</div>
      {note && <div className="metric-note">{note}</div>}
    </div>
  );
}

import { useEffect, useState } from 'react';
import { api, query } from '../api';
import { formatDate } from '../format';
import { Link, navigate, useLocation } from '../router';
import { PAYMENT_BATCH_STATUS_LABELS, type Merchant, type Page, type PaymentBatch, type PaymentBatchStatus } from '../types';
import { Badge, Empty, Field, FilterActions, Notice, onSubmit, PageHeader, Pager, Spinner, useLoad } from '../ui';
import { MerchantFilter } from './merchant-filter';

interface Filters {
  merchant_id: string;
  status: string;
}

const EMPTY: Filters = { merchant_id: '', status: '' };
const PAGE_SIZE = 20;
const STATUSES = Object.keys(PAYMENT_BATCH_STATUS_LABELS) as PaymentBatchStatus[];

function filtersFrom(search: URLSearchParams): Filters {
  return { merchant_id: search.get('merchant_id') ?? '', status: search.get('status') ?? '' };
}

/** "998 created · 2 failed": what became of a batch's charges, the failures never left out. */
export function batchCounts(counts: PaymentBatch['counts']): string {
  const parts = [`${counts.created} created`];
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  if (counts.pending > 0) parts.push(`${counts.pending} pending`);
  return parts.join(' · ');
}

/**
 * Batches of due-date charges across merchants (docs/due-charges.md, Batches), newest first: filters
 * in the URL, keyset pages. A batch still processing is read again every few seconds.
 */
export function Batches() {
  const { search } = useLocation();
  const applied = filtersFrom(search);
  const cursor = search.get('cursor') ?? '';
  const [draft, setDraft] = useState<Filters>(applied);
  const [previous, setPrevious] = useState<string[]>([]);
  const key = search.toString();

  useEffect(() => setDraft(filtersFrom(new URLSearchParams(key))), [key]);

  const merchants = useLoad(() => api<Page<Merchant>>('GET', `/merchants${query({ limit: 100 })}`), []);
  const names = new Map((merchants.data?.items ?? []).map((m) => [m.id, m.name]));
  const list = useLoad(() => api<Page<PaymentBatch>>('GET', `/payment-batches${query({ ...applied, limit: PAGE_SIZE, cursor })}`), [key]);

  const processing = list.data?.items.some((b) => b.status === 'processing') ?? false;
  useEffect(() => {
    if (!processing) return;
    const timer = setInterval(() => void list.reload(), 3000);
    return () => clearInterval(timer);
  }, [processing, list.reload]);

  const go = (filters: Filters, nextCursor = '') => navigate(`/admin/payment-batches${query({ ...filters, cursor: nextCursor })}`);
  const set = (name: keyof Filters) => (event: React.ChangeEvent<HTMLSelectElement>) => setDraft({ ...draft, [name]: event.target.value });
  const filtered = Object.values(applied).some(Boolean);

  return (
    <>
      <PageHeader title="Batches" subtitle="Batches of due-date charges, newest first, across all merchants." />
      <form
        className="filters card"
        onSubmit={onSubmit(() => {
          setPrevious([]);
          go(draft);
        })}
        noValidate
        aria-label="Filter batches"
      >
        <Field label="Merchant" htmlFor="b-merchant">
          <MerchantFilter id="b-merchant" value={draft.merchant_id} onChange={set('merchant_id')} merchants={merchants.data?.items} />
        </Field>
        <Field label="Status" htmlFor="b-status">
          <select id="b-status" value={draft.status} onChange={set('status')}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {PAYMENT_BATCH_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </Field>
        <FilterActions
          filtered={filtered}
          onClear={() => {
            setPrevious([]);
            go(EMPTY);
          }}
        />
      </form>

      <Notice>{list.error}</Notice>
      {list.loading && !list.data && <Spinner />}
      {list.data?.items.length === 0 && <Empty>{filtered ? 'No batch matches these filters.' : 'No batches yet. A merchant sends one with POST /v1/payment-batches.'}</Empty>}
      {list.data && list.data.items.length > 0 && (
        <div className={`card card-flush${list.loading && !processing ? ' is-loading' : ''}`}>
          <table className="table table-cards" aria-label="Batches">
            <thead>
              <tr>
                <th>Created</th>
                <th>Batch</th>
                <th>Merchant</th>
                <th>Charges</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((b) => (
                <tr key={b.id} className={`row-link${b.counts.failed > 0 ? ' row-alert' : ''}`} onClick={() => navigate(`/admin/payment-batches/${b.id}`)}>
                  <td data-label="Created">{formatDate(b.createdAt)}</td>
                  <td data-label="Batch">
                    <div className="cell-stack">
                      <Link to={`/admin/payment-batches/${b.id}`} className="strong">
                        {b.description}
                      </Link>
                      <div className="mono muted small">{b.id}</div>
                    </div>
                  </td>
                  <td data-label="Merchant">{names.get(b.merchant_id) ?? <span className="mono small">{b.merchant_id}</span>}</td>
                  <td data-label="Charges">
                    <span>
                      {b.counts.created + b.counts.failed + b.counts.pending} <span className="muted small">({batchCounts(b.counts)})</span>
                    </span>
                  </td>
                  <td data-label="Status">
                    <Badge value={b.status} label={PAYMENT_BATCH_STATUS_LABELS[b.status].toLowerCase()} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager previous={previous} setPrevious={setPrevious} cursor={cursor} nextCursor={list.data?.next_cursor} go={(to) => go(applied, to)} />
    </>
  );
}

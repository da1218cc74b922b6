import { useEffect, useState } from 'react';
import { api, query } from '../api';
import { formatDate } from '../format';
import { Link, navigate, useLocation } from '../router';
import { RECURRENCE_STATUS_LABELS, RECURRENCE_STATUSES, type Merchant, type Page, type Recurrence } from '../types';
import { Badge, Empty, Field, FilterActions, Notice, onSubmit, PageHeader, Pager, Spinner, useLoad } from '../ui';
import { recurrenceAmount } from './recurrence-format';
import { TestBadge } from './test-mode';
import { MerchantFilter } from './merchant-filter';

interface Filters {
  merchant_id: string;
  status: string;
  external_id: string;
}

const EMPTY: Filters = { merchant_id: '', status: '', external_id: '' };
const PAGE_SIZE = 20;

function filtersFrom(search: URLSearchParams): Filters {
  return { merchant_id: search.get('merchant_id') ?? '', status: search.get('status') ?? '', external_id: search.get('external_id') ?? '' };
}

/** Pix Automático recurrences across merchants (docs/dashboard.md, Recurrences): filters in the URL, keyset pages. */
export function Recurrences() {
  const { search } = useLocation();
  const applied = filtersFrom(search);
  const cursor = search.get('cursor') ?? '';
  const [draft, setDraft] = useState<Filters>(applied);
  const [externalError, setExternalError] = useState<string>();
  const [previous, setPrevious] = useState<string[]>([]);
  const key = search.toString();

  useEffect(() => setDraft(filtersFrom(new URLSearchParams(key))), [key]);

  const merchants = useLoad(() => api<Page<Merchant>>('GET', `/merchants${query({ limit: 100 })}`), []);
  const names = new Map((merchants.data?.items ?? []).map((m) => [m.id, m.name]));
  const list = useLoad(() => api<Page<Recurrence>>('GET', `/recurrences${query({ ...applied, limit: PAGE_SIZE, cursor })}`), [key]);

  const go = (filters: Filters, nextCursor = '') => navigate(`/admin/recurrences${query({ ...filters, cursor: nextCursor })}`);
  const apply = () => {
    const external = draft.external_id.trim();
    const problem = external && !/^[A-Za-z0-9._:-]{1,64}$/.test(external) ? 'An external id is 1–64 letters, digits or . _ : -' : undefined;
    setExternalError(problem);
    if (problem) return;
    setPrevious([]);
    go({ ...draft, external_id: external });
  };
  const set = (name: keyof Filters) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setDraft({ ...draft, [name]: event.target.value });
  const filtered = Object.values(applied).some(Boolean);

  return (
    <>
      <PageHeader title="Recurrences" subtitle="Pix Automático authorizations, newest first, across all merchants." />
      <form className="filters card" onSubmit={onSubmit(apply)} noValidate aria-label="Filter recurrences">
        <Field label="Merchant" htmlFor="r-merchant">
          <MerchantFilter id="r-merchant" value={draft.merchant_id} onChange={set('merchant_id')} merchants={merchants.data?.items} />
        </Field>
        <Field label="Status" htmlFor="r-status">
          <select id="r-status" value={draft.status} onChange={set('status')}>
            <option value="">Any status</option>
            {RECURRENCE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {RECURRENCE_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="External id" htmlFor="r-external" error={externalError}>
          <input id="r-external" placeholder="subscription-881" value={draft.external_id} onChange={set('external_id')} aria-invalid={!!externalError} />
        </Field>
        <FilterActions
          filtered={filtered}
          onClear={() => {
            setExternalError(undefined);
            setPrevious([]);
            go(EMPTY);
          }}
        />
      </form>

      <Notice>{list.error}</Notice>
      {list.loading && !list.data && <Spinner />}
      {list.data?.items.length === 0 && <Empty>{filtered ? 'No recurrence matches these filters.' : 'No recurrences yet.'}</Empty>}
      {list.data && list.data.items.length > 0 && (
        <div className={`card card-flush${list.loading ? ' is-loading' : ''}`}>
          <table className="table table-cards" aria-label="Recurrences">
            <thead>
              <tr>
                <th>Created</th>
                <th>Recurrence</th>
                <th>Merchant</th>
                <th>Payer</th>
                <th className="num">Amount</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((r) => (
                <tr key={r.id} className="row-link" onClick={() => navigate(`/admin/recurrences/${r.id}`)}>
                  <td data-label="Created">{formatDate(r.createdAt)}</td>
                  <td data-label="Recurrence">
                    <div className="cell-stack">
                      <Link to={`/admin/recurrences/${r.id}`} className="strong">
                        {r.externalId}
                      </Link>
                      <div className="mono muted small">{r.id}</div>
                    </div>
                  </td>
                  <td data-label="Merchant">{names.get(r.merchant_id) ?? <span className="mono small">{r.merchant_id}</span>}</td>
                  <td data-label="Payer">{r.payer.name}</td>
                  <td data-label="Amount" className="num">
                    {recurrenceAmount(r)}
                  </td>
                  <td data-label="Status">
                    <Badge value={r.status} label={RECURRENCE_STATUS_LABELS[r.status].toLowerCase()} />
                    <TestBadge environment={r.environment} />
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

import { useEffect, useState } from 'react';
import { api, query } from '../api';
import { formatDate, formatMoney } from '../format';
import { Link, navigate, useLocation } from '../router';
import { PAYMENT_STATUS_LABELS, PAYMENT_STATUSES, type Merchant, type Page, type Payment } from '../types';
import { Badge, Button, Empty, Field, FilterActions, Notice, onSubmit, PageHeader, Pager, Spinner, useLoad } from '../ui';
import { TestBadge, TestPaymentDialog } from './test-mode';
import { AfterCloseMarker } from './paid-after-close';
import { MerchantFilter } from './merchant-filter';

interface Filters {
  merchant_id: string;
  status: string;
  external_id: string;
  from: string;
  to: string;
  /** 'true': only payments paid after close (money received after they were cancelled or expired). */
  paid_after_close: string;
}

const EMPTY: Filters = { merchant_id: '', status: '', external_id: '', from: '', to: '', paid_after_close: '' };
const PAGE_SIZE = 20;

/** yyyy-mm-dd (a date input's value) to the instant of that local midnight. */
const localDayStart = (day: string): Date => {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d);
};

function filtersFrom(search: URLSearchParams): Filters {
  return {
    merchant_id: search.get('merchant_id') ?? '',
    status: search.get('status') ?? '',
    external_id: search.get('external_id') ?? '',
    from: search.get('from') ?? '',
    to: search.get('to') ?? '',
    paid_after_close: search.get('paid_after_close') === 'true' ? 'true' : '',
  };
}

function validate(filters: Filters): Partial<Record<keyof Filters, string>> {
  const errors: Partial<Record<keyof Filters, string>> = {};
  if (filters.external_id && !/^[A-Za-z0-9._:-]{1,64}$/.test(filters.external_id.trim())) {
    errors.external_id = 'An external id is 1–64 letters, digits or . _ : -';
  }
  if (filters.from && filters.to && filters.from > filters.to) errors.to = 'The end date is before the start date.';
  return errors;
}

export function Payments() {
  const { search } = useLocation();
  const applied = filtersFrom(search);
  const cursor = search.get('cursor') ?? '';
  const [draft, setDraft] = useState<Filters>(applied);
  const [errors, setErrors] = useState<Partial<Record<keyof Filters, string>>>({});
  const [previous, setPrevious] = useState<string[]>([]);
  const [creating, setCreating] = useState(false);
  const key = search.toString();

  useEffect(() => setDraft(filtersFrom(new URLSearchParams(key))), [key]);

  const merchants = useLoad(() => api<Page<Merchant>>('GET', `/merchants${query({ limit: 100 })}`), []);
  const names = new Map((merchants.data?.items ?? []).map((m) => [m.id, m.name]));
  const payments = useLoad(
    () =>
      api<Page<Payment>>(
        'GET',
        `/payments${query({
          merchant_id: applied.merchant_id,
          status: applied.status,
          external_id: applied.external_id.trim(),
          paid_after_close: applied.paid_after_close || undefined,
          created_from: applied.from ? localDayStart(applied.from).toISOString() : undefined,
          // Up to the end of the chosen day: the API's bound is exclusive.
          created_to: applied.to ? new Date(localDayStart(applied.to).getTime() + 86_400_000).toISOString() : undefined,
          limit: PAGE_SIZE,
          cursor,
        })}`,
      ),
    [key],
  );

  const go = (filters: Filters, nextCursor = '') => navigate(`/admin/payments${query({ ...filters, cursor: nextCursor })}`);
  const apply = () => {
    const problems = validate(draft);
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    setPrevious([]);
    go({ ...draft, external_id: draft.external_id.trim() });
  };
  const set = (name: keyof Filters) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setDraft({ ...draft, [name]: event.target.value });
  const filtered = Object.values(applied).some(Boolean);

  return (
    <>
      <PageHeader
        title="Payments"
        subtitle="Newest first, across all merchants."
        actions={
          <Button onClick={() => setCreating(true)} disabled={!merchants.data}>
            New test payment
          </Button>
        }
      />
      {creating && merchants.data && <TestPaymentDialog merchants={merchants.data.items} onClose={() => setCreating(false)} />}
      <form className="filters card" onSubmit={onSubmit(apply)} noValidate aria-label="Filter payments">
        <Field label="Merchant" htmlFor="f-merchant">
          <MerchantFilter id="f-merchant" value={draft.merchant_id} onChange={set('merchant_id')} merchants={merchants.data?.items} />
        </Field>
        <Field label="Status" htmlFor="f-status">
          <select id="f-status" value={draft.status} onChange={set('status')}>
            <option value="">Any status</option>
            {PAYMENT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {PAYMENT_STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Paid after close" htmlFor="f-after-close">
          <select id="f-after-close" value={draft.paid_after_close} onChange={set('paid_after_close')}>
            <option value="">Any payment</option>
            <option value="true">Only paid after close</option>
          </select>
        </Field>
        <Field label="External id" htmlFor="f-external" error={errors.external_id}>
          <input id="f-external" placeholder="order-1234" value={draft.external_id} onChange={set('external_id')} aria-invalid={!!errors.external_id} />
        </Field>
        <Field label="Created from" htmlFor="f-from" error={errors.from}>
          <input id="f-from" type="date" value={draft.from} onChange={set('from')} />
        </Field>
        <Field label="Created to" htmlFor="f-to" error={errors.to}>
          <input id="f-to" type="date" value={draft.to} onChange={set('to')} aria-invalid={!!errors.to} />
        </Field>
        <FilterActions
          filtered={filtered}
          onClear={() => {
            setErrors({});
            setPrevious([]);
            go(EMPTY);
          }}
        />
      </form>

      <Notice>{payments.error}</Notice>
      {payments.loading && !payments.data && <Spinner />}
      {payments.data?.items.length === 0 && <Empty>{filtered ? 'No payment matches these filters.' : 'No payments yet.'}</Empty>}
      {payments.data && payments.data.items.length > 0 && (
        <div className={`card card-flush${payments.loading ? ' is-loading' : ''}`}>
          <table className="table table-cards" aria-label="Payments">
            <thead>
              <tr>
                <th>Created</th>
                <th>Payment</th>
                <th>Merchant</th>
                <th className="num">Amount</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {payments.data.items.map((p) => (
                <tr key={p.id} className="row-link" onClick={() => navigate(`/admin/payments/${p.id}`)}>
                  <td data-label="Created">{formatDate(p.createdAt)}</td>
                  <td data-label="Payment">
                    <div className="cell-stack">
                      <Link to={`/admin/payments/${p.id}`} className="strong">
                        {p.externalId}
                      </Link>
                      <div className="mono muted small">{p.id}</div>
                    </div>
                  </td>
                  <td data-label="Merchant">{names.get(p.merchantId) ?? <span className="mono small">{p.merchantId}</span>}</td>
                  <td data-label="Amount" className="num">
                    <div className="cell-stack">
                      {formatMoney(p.amount)}
                      {p.refundedAmount > 0 && <div className="muted small">{formatMoney(p.refundedAmount)} refunded</div>}
                    </div>
                  </td>
                  <td data-label="Status">
                    {/* One item for the phone layout's row, which spreads its items apart: the badges stay together and wrap. */}
                    <span className="badges">
                      <Badge value={p.status} />
                      <TestBadge environment={p.environment} />
                      <AfterCloseMarker payment={p} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager previous={previous} setPrevious={setPrevious} cursor={cursor} nextCursor={payments.data?.next_cursor} go={(to) => go(applied, to)} />
    </>
  );
}

import { useEffect, useState } from 'react';
import { api, query } from '../api';
import { formatDate } from '../format';
import { Link, navigate, useLocation } from '../router';
import type { Merchant, Page, PaymentLink } from '../types';
import { Badge, Button, Empty, Field, FilterActions, FormModal, Notice, onSubmit, PageHeader, Pager, Spinner, useLoad, useSubmit } from '../ui';
import { apiLinkErrors, emptyLink, LinkFields, linkAmount, linkBody, linkCounts, PAYMENT_LINK_STATE_LABELS, validateLink } from './payment-link-form';
import { MerchantFilter } from './merchant-filter';

interface Filters {
  merchant_id: string;
  active: string;
}

const EMPTY: Filters = { merchant_id: '', active: '' };
const PAGE_SIZE = 20;

function filtersFrom(search: URLSearchParams): Filters {
  return { merchant_id: search.get('merchant_id') ?? '', active: search.get('active') ?? '' };
}

/**
 * Payment links across merchants (docs/dashboard.md, Payment links), newest first: filters in the
 * URL, keyset pages, and the form that makes one for a merchant.
 */
export function PaymentLinks() {
  const { search } = useLocation();
  const applied = filtersFrom(search);
  const cursor = search.get('cursor') ?? '';
  const [draft, setDraft] = useState<Filters>(applied);
  const [previous, setPrevious] = useState<string[]>([]);
  const [creating, setCreating] = useState(false);
  const key = search.toString();

  useEffect(() => setDraft(filtersFrom(new URLSearchParams(key))), [key]);

  const merchants = useLoad(() => api<Page<Merchant>>('GET', `/merchants${query({ limit: 100 })}`), []);
  const names = new Map((merchants.data?.items ?? []).map((m) => [m.id, m.name]));
  const list = useLoad(() => api<Page<PaymentLink>>('GET', `/payment-links${query({ ...applied, limit: PAGE_SIZE, cursor })}`), [key]);

  const go = (filters: Filters, nextCursor = '') => navigate(`/admin/payment-links${query({ ...filters, cursor: nextCursor })}`);
  const set = (name: keyof Filters) => (event: React.ChangeEvent<HTMLSelectElement>) => setDraft({ ...draft, [name]: event.target.value });
  const filtered = Object.values(applied).some(Boolean);

  return (
    <>
      <PageHeader
        title="Payment links"
        subtitle="Pages a merchant sends payers (on WhatsApp, by e-mail): each payer who opens one gets a payment of their own."
        actions={
          <Button kind="primary" onClick={() => setCreating(true)}>
            New payment link
          </Button>
        }
      />
      <form
        className="filters filters-2 card"
        onSubmit={onSubmit(() => {
          setPrevious([]);
          go(draft);
        })}
        noValidate
        aria-label="Filter payment links"
      >
        <Field label="Merchant" htmlFor="pl-merchant">
          <MerchantFilter id="pl-merchant" value={draft.merchant_id} onChange={set('merchant_id')} merchants={merchants.data?.items} />
        </Field>
        <Field label="Active" htmlFor="pl-active">
          <select id="pl-active" value={draft.active} onChange={set('active')}>
            <option value="">Active or deactivated</option>
            <option value="true">Active only</option>
            <option value="false">Deactivated only</option>
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
      {list.data?.items.length === 0 && (
        <Empty>{filtered ? 'No payment link matches these filters.' : 'No payment links yet. Make one with New payment link, or a merchant with POST /v1/payment-links.'}</Empty>
      )}
      {list.data && list.data.items.length > 0 && (
        <div className={`card card-flush${list.loading ? ' is-loading' : ''}`}>
          <table className="table table-cards" aria-label="Payment links">
            <thead>
              <tr>
                <th>Created</th>
                <th>Link</th>
                <th>Merchant</th>
                <th>Amount</th>
                <th>Payments</th>
                <th>State</th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((l) => (
                <tr key={l.id} className="row-link" onClick={() => navigate(`/admin/payment-links/${l.id}`)}>
                  <td data-label="Created">{formatDate(l.createdAt)}</td>
                  <td data-label="Link">
                    <div className="cell-stack">
                      <Link to={`/admin/payment-links/${l.id}`} className="strong break-words">
                        {l.title}
                      </Link>
                      <div className="mono muted small">{l.id}</div>
                    </div>
                  </td>
                  <td data-label="Merchant">{names.get(l.merchant_id) ?? <span className="mono small">{l.merchant_id}</span>}</td>
                  <td data-label="Amount" className="nowrap">
                    {linkAmount(l, { short: true })}
                  </td>
                  <td data-label="Payments">{linkCounts(l)}</td>
                  <td data-label="State">
                    <Badge value={l.state} label={PAYMENT_LINK_STATE_LABELS[l.state]} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager previous={previous} setPrevious={setPrevious} cursor={cursor} nextCursor={list.data?.next_cursor} go={(to) => go(applied, to)} />
      {creating && <CreatePaymentLink merchantId={applied.merchant_id} merchants={merchants.data?.items.filter((m) => m.active)} onClose={() => setCreating(false)} />}
    </>
  );
}

/** The create form, in a modal: the merchant first (the one filtered on, if any), then the link's terms; made, its page opens. */
export function CreatePaymentLink({ merchantId, merchants, onClose }: { merchantId?: string; merchants?: readonly Merchant[]; onClose: () => void }) {
  const [values, setValues] = useState(() => emptyLink(merchantId));
  const form = useSubmit({
    check: () => validateLink(values),
    send: async () => {
      const link = await api<PaymentLink>('POST', `/merchants/${encodeURIComponent(values.merchant_id)}/payment-links`, linkBody(values));
      navigate(`/admin/payment-links/${link.id}`);
    },
    fieldErrors: apiLinkErrors,
  });
  return (
    <FormModal id="create-payment-link" title="New payment link" submitLabel="Create link" form={form} onClose={onClose}>
      <LinkFields values={values} errors={form.errors} onChange={setValues} merchants={merchants} />
    </FormModal>
  );
}

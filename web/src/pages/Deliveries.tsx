import { Fragment, useState } from 'react';
import { api, query } from '../api';
import { formatDate } from '../format';
import { Link, navigate, useLocation } from '../router';
import type { ListedDelivery, Page } from '../types';
import { Badge, Button, Empty, Notice, PageHeader, Spinner, messageOf, useLoad } from '../ui';
import { deliveryState, DeliveryDetails, lastResult, RedeliverButton } from './delivery-bits';

/** A list the API can filter: a status, or `retrying` (pending after failed attempts). */
type ListFilter = 'retrying' | 'failed' | 'pending' | 'delivered';

/** Each list, with the words that are true when it is empty. */
const LISTS: Record<ListFilter, { title: string; empty: string }> = {
  retrying: { title: 'Retrying', empty: 'No delivery is being retried: none has a failed attempt and a next one due.' },
  failed: { title: 'Failed', empty: 'No delivery has failed for good.' },
  pending: { title: 'Pending', empty: 'Nothing is waiting to be delivered.' },
  delivered: { title: 'Delivered', empty: 'Nothing delivered yet.' },
};

/** The tabs; "Needs attention" (the default, and the overview's link) lists retrying first, then failed. */
const TABS: { view: 'attention' | 'pending' | 'delivered'; label: string; lists: ListFilter[] }[] = [
  { view: 'attention', label: 'Needs attention', lists: ['retrying', 'failed'] },
  { view: 'pending', label: 'Pending', lists: ['pending'] },
  { view: 'delivered', label: 'Delivered', lists: ['delivered'] },
];

export function Deliveries() {
  const { search } = useLocation();
  // Older links said ?status=failed: that is in "Needs attention" now.
  const tab = TABS.find((t) => t.view === search.get('status')) ?? TABS[0]!;
  const [notice, setNotice] = useState<{ text: string; ok: boolean }>();
  const [generation, setGeneration] = useState(0);

  return (
    <>
      <PageHeader
        title="Webhook deliveries"
        subtitle="Events forwarded to merchants, across all merchants."
        actions={<Button onClick={() => setGeneration((g) => g + 1)}>Refresh</Button>}
      />
      <div className="tabs" role="tablist">
        {TABS.map((t) => (
          <button
            key={t.view}
            type="button"
            role="tab"
            aria-selected={t === tab}
            className={t === tab ? 'tab tab-active' : 'tab'}
            onClick={() => navigate(t.view === 'attention' ? '/admin/deliveries' : `/admin/deliveries?status=${t.view}`, { replace: true })}
          >
            {t.label}
          </button>
        ))}
      </div>
      {notice && (
        <Notice kind={notice.ok ? 'success' : 'error'} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {tab.lists.map((filter) => (
        <DeliveryList
          key={`${filter}-${generation}`}
          filter={filter}
          titled={tab.lists.length > 1}
          onNotice={(text, ok) => {
            setNotice({ text, ok });
            if (ok) setGeneration((g) => g + 1);
          }}
        />
      ))}
    </>
  );
}

/** One filtered list, a keyset page at a time; a row opens to its payload and answers. */
function DeliveryList({ filter, titled, onNotice }: { filter: ListFilter; titled: boolean; onNotice: (text: string, ok: boolean) => void }) {
  const [more, setMore] = useState<ListedDelivery[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [open, setOpen] = useState<string>();
  const list = useLoad(async () => {
    const page = await api<Page<ListedDelivery>>('GET', `/webhook-deliveries${query({ status: filter, limit: 50 })}`);
    setMore([]);
    setCursor(page.next_cursor);
    return page.items;
  }, [filter]);

  const loadMore = async () => {
    try {
      const page = await api<Page<ListedDelivery>>('GET', `/webhook-deliveries${query({ status: filter, limit: 50, cursor })}`);
      setMore((items) => [...items, ...page.items]);
      setCursor(page.next_cursor);
    } catch (e) {
      onNotice(messageOf(e), false);
    }
  };
  const items = [...(list.data ?? []), ...more];
  const { title, empty } = LISTS[filter];

  return (
    <section className="delivery-list" aria-label={`${title} deliveries`}>
      {titled && <h2 className="section-title">{title}</h2>}
      <Notice>{list.error}</Notice>
      {list.loading && !list.data && <Spinner />}
      {list.data && items.length === 0 && <Empty>{empty}</Empty>}
      {items.length > 0 && (
        <div className="card card-flush">
          <table className="table table-cards" aria-label={`${filter} deliveries`}>
            <thead>
              <tr>
                <th>Created</th>
                <th>Event</th>
                <th>Merchant</th>
                <th>Payment / recurrence</th>
                <th>State</th>
                <th>Last result</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <Fragment key={d.id}>
                  <tr>
                    <td data-label="Created">{formatDate(d.created_at)}</td>
                    <td data-label="Event">
                      <span>
                        {d.event_type} <Badge value={d.status} />
                      </span>
                    </td>
                    <td data-label="Merchant">
                      <Link to={`/admin/merchants/${d.merchant_id}`}>{d.merchant_name}</Link>
                    </td>
                    <td data-label="About">
                      <AboutLink delivery={d} />
                    </td>
                    <td data-label="State">{deliveryState(d, d.attempts)}</td>
                    <td data-label="Last result" className="wrap">
                      {lastResult(d)}
                    </td>
                    <td className="actions-cell">
                      <span className="button-pair">
                        <Button aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? undefined : d.id)}>
                          {open === d.id ? 'Hide' : 'Details'}
                        </Button>
                        {d.status !== 'delivered' && <RedeliverButton delivery={d} onDone={onNotice} />}
                      </span>
                    </td>
                  </tr>
                  {open === d.id && (
                    <tr className="details-row">
                      <td colSpan={7}>
                        <DeliveryDetails id={d.id} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor && (
        <div className="pager">
          <Button onClick={() => void loadMore()}>Load more</Button>
        </div>
      )}
    </section>
  );
}

/** What a delivery's event is about: its payment, its recurrence (a `recurrence.*` or `recurring_charge.*` event) or its batch (`payment_batch.completed`). */
function AboutLink({ delivery: d }: { delivery: ListedDelivery }) {
  const [to, id] = d.payment_id ? ['payments', d.payment_id] : d.recurrence_id ? ['recurrences', d.recurrence_id] : d.batch_id ? ['payment-batches', d.batch_id] : [];
  if (!to || !id) return <span className="muted">—</span>;
  return (
    <Link to={`/admin/${to}/${id}`} className="mono small">
      {id}
    </Link>
  );
}

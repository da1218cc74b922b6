import { useState } from 'react';
import { api, query } from '../api';
import { formatDate } from '../format';
import { Link, navigate, useLocation } from '../router';
import type { DeliveryStatus, ListedDelivery, Page } from '../types';
import { Badge, Button, Empty, Notice, PageHeader, Spinner, messageOf, useLoad } from '../ui';
import { deliveryState, lastResult, RedeliverButton } from './delivery-bits';

const TABS: { status: DeliveryStatus; label: string; empty: string }[] = [
  { status: 'failed', label: 'Failed', empty: 'No failed deliveries: every merchant took its events.' },
  { status: 'pending', label: 'Pending', empty: 'Nothing is waiting to be delivered.' },
  { status: 'delivered', label: 'Delivered', empty: 'Nothing delivered yet.' },
];

export function Deliveries() {
  const { search } = useLocation();
  const status = TABS.find((t) => t.status === search.get('status'))?.status ?? 'failed';
  const [more, setMore] = useState<ListedDelivery[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ text: string; ok: boolean }>();
  const list = useLoad(async () => {
    const page = await api<Page<ListedDelivery>>('GET', `/webhook-deliveries${query({ status, limit: 50 })}`);
    setMore([]);
    setCursor(page.next_cursor);
    return page.items;
  }, [status]);

  const loadMore = async () => {
    try {
      const page = await api<Page<ListedDelivery>>('GET', `/webhook-deliveries${query({ status, limit: 50, cursor })}`);
      setMore((items) => [...items, ...page.items]);
      setCursor(page.next_cursor);
    } catch (e) {
      setNotice({ text: messageOf(e), ok: false });
    }
  };
  const items = [...(list.data ?? []), ...more];

  return (
    <>
      <PageHeader
        title="Webhook deliveries"
        subtitle="Events forwarded to merchants, across all merchants."
        actions={
          <Button onClick={() => void list.reload()} busy={list.loading && !!list.data}>
            Refresh
          </Button>
        }
      />
      <div className="tabs" role="tablist">
        {TABS.map((t) => (
          <button
            key={t.status}
            type="button"
            role="tab"
            aria-selected={t.status === status}
            className={t.status === status ? 'tab tab-active' : 'tab'}
            onClick={() => navigate(`/admin/deliveries?status=${t.status}`, { replace: true })}
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
      <Notice>{list.error}</Notice>
      {list.loading && !list.data && <Spinner />}
      {list.data && items.length === 0 && <Empty>{TABS.find((t) => t.status === status)!.empty}</Empty>}
      {items.length > 0 && (
        <div className="card card-flush">
          <table className="table table-cards" aria-label={`${status} deliveries`}>
            <thead>
              <tr>
                <th>Created</th>
                <th>Event</th>
                <th>Merchant</th>
                <th>Payment</th>
                <th>State</th>
                <th>Last result</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {items.map((d) => (
                <tr key={d.id}>
                  <td data-label="Created">{formatDate(d.created_at)}</td>
                  <td data-label="Event">
                    <span>
                      {d.event_type} <Badge value={d.status} />
                    </span>
                  </td>
                  <td data-label="Merchant">
                    <Link to={`/admin/merchants/${d.merchant_id}`}>{d.merchant_name}</Link>
                  </td>
                  <td data-label="Payment">
                    <Link to={`/admin/payments/${d.payment_id}`} className="mono small">
                      {d.payment_id}
                    </Link>
                  </td>
                  <td data-label="State">{deliveryState(d, d.attempts)}</td>
                  <td data-label="Last result" className="wrap">
                    {lastResult(d)}
                  </td>
                  <td className="actions-cell">
                    {d.status !== 'delivered' && (
                      <RedeliverButton
                        delivery={d}
                        onDone={(text, ok) => {
                          setNotice({ text, ok });
                          if (ok) void list.reload();
                        }}
                      />
                    )}
                  </td>
                </tr>
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
    </>
  );
}

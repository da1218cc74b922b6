import { useEffect, useState } from 'react';
import { api, query } from '../api';
import { formatDate, formatMoney } from '../format';
import { RecordUnloaded } from '../record';
import { Link, navigate } from '../router';
import type { Merchant, Page, Payment, PaymentLink } from '../types';
import { Badge, Button, Card, Confirm, Empty, LoadMore, Notice, PageHeader, Spinner, useLoad, useLoadMore } from '../ui';
import { PublicLink } from './checkout-link';
import { closedReason, linkAmount, PAYMENT_LINK_STATE_LABELS } from './payment-link-form';
import { TestBadge } from './test-mode';

const PAYMENTS_PAGE = 20;

/**
 * One payment link (docs/dashboard.md, Payment links): its address to copy or open, its terms, what
 * it has sold, Deactivate (for good, once confirmed) and the payments payers opened from it.
 */
export function PaymentLinkDetail({ id }: { id: string }) {
  const detail = useLoad(() => api<PaymentLink>('GET', `/payment-links/${encodeURIComponent(id)}`), [id]);
  const [merchant, setMerchant] = useState<Merchant>();
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string>();
  const l = detail.data;

  useEffect(() => {
    if (!l || merchant?.id === l.merchant_id) return;
    api<Merchant>('GET', `/merchants/${l.merchant_id}`).then(setMerchant, () => undefined);
  }, [l, merchant]);

  if (!l) return <RecordUnloaded title="Payment link" error={detail.error} back={{ to: '/admin/payment-links', label: 'Back to payment links' }} />;
  const closed = closedReason(l);

  return (
    <>
      <div className="crumbs">
        <Link to="/admin/payment-links">Payment links</Link> / <span>{l.title}</span>
      </div>
      <PageHeader
        title={
          <>
            <span className="break-words">{l.title}</span> <Badge value={l.state} label={PAYMENT_LINK_STATE_LABELS[l.state]} />
          </>
        }
        subtitle={
          <>
            <span className="mono">{l.id}</span> · {merchant ? <Link to={`/admin/merchants/${merchant.id}`}>{merchant.name}</Link> : <span className="mono">{l.merchant_id}</span>}
          </>
        }
        actions={
          <>
            {l.active && (
              <Button kind="danger" onClick={() => setConfirming(true)}>
                Deactivate
              </Button>
            )}
            <Button onClick={() => void detail.reload()} busy={detail.loading}>
              Refresh
            </Button>
          </>
        }
      />
      <Notice kind="success" onClose={() => setDone(undefined)}>
        {done}
      </Notice>
      {closed && <Notice kind={l.state === 'used_up' ? 'info' : 'warning'}>{closed}</Notice>}
      {confirming && (
        <Confirm
          title="Deactivate this payment link?"
          confirmLabel="Deactivate link"
          onClose={() => setConfirming(false)}
          onConfirm={async () => {
            detail.setData(await api<PaymentLink>('POST', `/payment-links/${encodeURIComponent(l.id)}/deactivate`));
            setDone('The link is deactivated.');
          }}
        >
          <p>
            Its page will tell payers that <strong>{l.title}</strong> no longer takes payments. Payments already made from it are kept. A link cannot be reactivated: make a new one
            instead.
          </p>
        </Confirm>
      )}

      <div className="grid-2">
        <Card title="Link">
          <PublicLink id="payment-link-url" label="Address to send payers" url={l.url} what="the payment link's page" />
          <dl className="fields">
            <dt>Amount</dt>
            <dd className="prose">{linkAmount(l)}</dd>
            {l.description && (
              <>
                <dt>Description</dt>
                <dd className="prose">{l.description}</dd>
              </>
            )}
            <dt>Expires</dt>
            <dd>{l.expiresAt ? formatDate(l.expiresAt) : <span className="muted">never</span>}</dd>
            <dt>Most payments</dt>
            <dd>{l.maxPayments ?? <span className="muted">no limit</span>}</dd>
            <dt>Asks</dt>
            <dd className="prose">{l.collect.email ? 'name, CPF/CNPJ and e-mail' : 'name and CPF/CNPJ'}</dd>
            <dt>Returns to</dt>
            <dd className={l.returnUrl ? 'mono' : undefined}>{l.returnUrl ?? <span className="muted">nowhere: the page stays on the payment</span>}</dd>
            <dt>Created</dt>
            <dd>{formatDate(l.createdAt)}</dd>
          </dl>
        </Card>
        <Card title="Sold">
          <div className="metrics metrics-inline" aria-label="Payments of this link">
            <div className="metric">
              <div className="metric-label">Opened</div>
              <div className="metric-value">{l.paymentsCount}</div>
              <div className="metric-note">payments payers started</div>
            </div>
            <div className="metric">
              <div className="metric-label">Paid</div>
              <div className="metric-value">{l.paidCount}</div>
              <div className="metric-note">refunded ones included</div>
            </div>
            {l.maxPayments !== null && (
              <div className="metric">
                <div className="metric-label">Limit</div>
                <div className="metric-value">{l.maxPayments}</div>
                <div className="metric-note">paid and pending</div>
              </div>
            )}
          </div>
        </Card>
      </div>

      <LinkPayments linkId={l.id} merchantId={l.merchant_id} count={l.paymentsCount} />
    </>
  );
}

/** The payments payers opened from the link, newest first, a page at a time (`GET /payments?payment_link_id=`). */
function LinkPayments({ linkId, merchantId, count }: { linkId: string; merchantId: string; count: number }) {
  const first = useLoad(() => api<Page<Payment>>('GET', `/payments${query({ payment_link_id: linkId, merchant_id: merchantId, limit: PAYMENTS_PAGE })}`), [linkId, count]);
  const pages = useLoadMore(first.data, (cursor) =>
    api<Page<Payment>>('GET', `/payments${query({ payment_link_id: linkId, merchant_id: merchantId, limit: PAYMENTS_PAGE, cursor })}`),
  );
  const payments = pages.items;
  return (
    <Card title="Payments">
      <Notice>{first.error}</Notice>
      {first.loading && !first.data && <Spinner />}
      {first.data && payments.length === 0 && <Empty>No payer has opened this link yet.</Empty>}
      {payments.length > 0 && (
        <table className="table table-cards" aria-label="Payments of this link">
          <thead>
            <tr>
              <th>Created</th>
              <th>Payment</th>
              <th>Payer</th>
              <th className="num">Amount</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {payments.map((p) => (
              <tr key={p.id} className="row-link" onClick={() => navigate(`/admin/payments/${p.id}`)}>
                <td data-label="Created">{formatDate(p.createdAt)}</td>
                <td data-label="Payment">
                  <Link to={`/admin/payments/${p.id}`} className="mono break-words">
                    {p.id}
                  </Link>
                </td>
                <td data-label="Payer">
                  <span className="break-words">{p.recipient.name}</span>
                </td>
                <td data-label="Amount" className="num">
                  {formatMoney(p.amount)}
                </td>
                <td data-label="Status">
                  <span className="badge-stack">
                    <Badge value={p.status} />
                    <TestBadge environment={p.environment} />
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LoadMore pages={pages} />
    </Card>
  );
}

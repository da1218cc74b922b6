import { useEffect, useState } from 'react';
import { api } from '../api';
import { formatDate, formatDateSeconds, formatDocument, formatMoney } from '../format';
import { Link } from '../router';
import type { CreatedRefund, Merchant, PaymentDetail as Detail, PaymentEvent, ProviderAccount, ProviderDescriptor } from '../types';
import { RecordUnloaded } from '../record';
import { Badge, Button, Card, CopyButton, Empty, Notice, PageHeader, useLoad } from '../ui';
import { DeliveriesCard } from './delivery-bits';
import { EnvironmentBadge } from './provider-account-form';
import { orphansPending, PaymentAttempts } from './payment-attempts';
import { CancelDialog, RefundDialog } from './payment-actions';
import { AfterCloseMarker, AfterCloseNotice } from './paid-after-close';
import { pendingCents, refundOutcome, RefundsCard } from './payment-refunds';
import { SimulatePanel, TestBadge } from './test-mode';
import { AmountMismatchNotice, DueTermsCard, formatAddress, isPaidMismatch } from './due-charge';
import { PublicLink } from './checkout-link';

export function PaymentDetail({ id }: { id: string }) {
  const detail = useLoad(() => api<Detail>('GET', `/payments/${encodeURIComponent(id)}`), [id]);
  const [merchant, setMerchant] = useState<Merchant>();
  const [notice, setNotice] = useState<{ text: string; ok: boolean }>();
  const [dialog, setDialog] = useState<'refund' | 'cancel'>();
  // What a refund opened from a due-date charge's overpayment starts from, in centavos.
  const [suggested, setSuggested] = useState<number>();
  // The refund the operator just asked for: its notice follows it as the page reads it again.
  const [asked, setAsked] = useState<CreatedRefund>();
  const p = detail.data;

  useEffect(() => {
    if (!p || merchant?.id === p.merchantId) return;
    api<Merchant>('GET', `/merchants/${p.merchantId}`).then(setMerchant, () => undefined);
  }, [p, merchant]);

  // The accounts' names and the providers' labels, for the attempts; without them, ids and names are shown.
  // The catalogue also says whether the provider refunds part of a payment.
  const [accounts, setAccounts] = useState<ProviderAccount[]>();
  const [catalogue, setCatalogue] = useState<ProviderDescriptor[]>();
  const routed = p?.attempts?.some((a) => a.account_id !== null) ?? false;
  const refundable = p?.can_refund ?? false;
  useEffect(() => {
    if (!routed) return;
    api<ProviderAccount[]>('GET', '/provider-accounts').then(setAccounts, () => undefined);
  }, [routed]);
  useEffect(() => {
    if (!routed && !refundable) return;
    api<ProviderDescriptor[]>('GET', '/providers').then(setCatalogue, () => undefined);
  }, [routed, refundable]);

  // While a forward is waiting for its next attempt, an orphan charge for its cancellation or a refund for the PSP,
  // keep the page current. (Orphans and refunds settle over seconds to minutes: a slower pace is enough.)
  const refundsPending = p?.refunds?.some((r) => r.status === 'pending') ?? false;
  const waiting = p?.deliveries.some((d) => d.status === 'pending') ? 2000 : orphansPending(p?.attempts) || refundsPending ? 5000 : 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void detail.reload(), waiting);
    return () => clearInterval(timer);
  }, [waiting, detail.reload]);

  if (!p) return <RecordUnloaded title="Payment" error={detail.error} back={{ to: '/admin/payments', label: 'Back to payments' }} />;

  return (
    <>
      <div className="crumbs">
        <Link to="/admin/payments">Payments</Link> / <span className="mono">{p.id}</span>
      </div>
      <PageHeader
        title={
          <>
            {formatMoney(p.amount)} <Badge value={p.status} />
            <TestBadge environment={p.environment} />
            <AfterCloseMarker payment={p} />
          </>
        }
        subtitle={
          <>
            {p.externalId} · {merchant ? <Link to={`/admin/merchants/${merchant.id}`}>{merchant.name}</Link> : <span className="mono">{p.merchantId}</span>}
          </>
        }
        actions={
          <>
            {p.can_refund && (
              <Button
                kind="primary"
                onClick={() => {
                  setSuggested(undefined);
                  setDialog('refund');
                }}
              >
                Refund
              </Button>
            )}
            {p.can_cancel && (
              <Button kind="danger" onClick={() => setDialog('cancel')}>
                Cancel payment
              </Button>
            )}
            <Button onClick={() => void detail.reload()} busy={detail.loading}>
              Refresh
            </Button>
          </>
        }
      />
      <AfterCloseNotice
        payment={p}
        onRefund={() => {
          setSuggested(undefined);
          setDialog('refund');
        }}
      />
      <AmountMismatchNotice
        payment={p}
        onRefund={(cents) => {
          setSuggested(cents);
          setDialog('refund');
        }}
      />
      {dialog === 'refund' && (
        <RefundDialog
          payment={p}
          partial={catalogue?.find((d) => d.name === p.provider)?.capabilities.partial_refund ?? true}
          suggested={suggested}
          onClose={() => setDialog(undefined)}
          onConflict={() => void detail.reload()}
          onRefunded={(refund) => {
            setDialog(undefined);
            setNotice(undefined);
            setAsked(refund);
            void detail.reload();
          }}
        />
      )}
      {dialog === 'cancel' && (
        <CancelDialog
          payment={p}
          onClose={() => setDialog(undefined)}
          onCancelled={() => {
            setDialog(undefined);
            setNotice({ ok: true, text: 'The payment was cancelled at the PSP: it can no longer be paid.' });
            void detail.reload();
          }}
          onConflict={(message) => {
            setDialog(undefined);
            setNotice({ ok: false, text: message });
            void detail.reload();
          }}
        />
      )}
      {asked && <AskedRefund refund={p.refunds?.find((r) => r.id === asked.id) ?? asked} onClose={() => setAsked(undefined)} />}
      {notice && (
        <Notice kind={notice.ok ? 'success' : 'error'} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {p.can_simulate && (
        <SimulatePanel
          payment={p}
          onSimulated={(payment, outcome) => {
            if (payment) detail.setData(payment);
            setNotice(outcome);
          }}
        />
      )}

      <div className="grid-2">
        <Card title="Details">
          <dl className="fields">
            <dt>Payment id</dt>
            <dd className="mono">{p.id}</dd>
            <dt>External id</dt>
            <dd className="mono">{p.externalId}</dd>
            <dt>Amount</dt>
            <dd>
              {formatMoney(p.amount)} {p.currency}
            </dd>
            {(p.refundedAmount > 0 || pendingCents(p) > 0) && (
              <>
                <dt>Refunded</dt>
                <dd>
                  {formatMoney(p.refundedAmount)}
                  {pendingCents(p) > 0 && <span className="muted"> · {formatMoney(pendingCents(p) / 100)} pending</span>}
                </dd>
              </>
            )}
            <dt>Description</dt>
            <dd>{p.description ?? <span className="muted">none</span>}</dd>
            <dt>Recipient</dt>
            <dd>
              {p.recipient.name} · <span className="mono">{formatDocument(p.recipient.document)}</span>
              {p.recipient.email && <> · {p.recipient.email}</>}
            </dd>
            {p.recipient.address && (
              <>
                <dt>Address</dt>
                <dd className="prose">{formatAddress(p.recipient.address)}</dd>
              </>
            )}
            <dt>Provider</dt>
            <dd>
              {p.provider} {p.providerPaymentId && <span className="mono muted small">{p.providerPaymentId}</span>}
            </dd>
            <dt>Environment</dt>
            <dd>
              <EnvironmentBadge environment={p.environment} />
            </dd>
            <dt>Pix txid</dt>
            <dd className="mono">{p.pix.txid}</dd>
            {p.pix.endToEndId && (
              <>
                <dt>End-to-end id</dt>
                <dd className="mono">{p.pix.endToEndId}</dd>
              </>
            )}
            {p.payer && (
              <>
                <dt>Paid by</dt>
                <dd>
                  {p.payer.name}
                  {p.payer.document && <span className="mono"> · {p.payer.document}</span>}
                  {p.paidAmount !== null && p.paidAmount !== undefined && <span className="muted"> · {formatMoney(p.paidAmount)}</span>}
                </dd>
              </>
            )}
            <dt>Created</dt>
            <dd>{formatDateSeconds(p.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatDateSeconds(p.updatedAt)}</dd>
            <dt>Paid</dt>
            <dd>{formatDateSeconds(p.paidAt)}</dd>
            <dt>Expires</dt>
            <dd>{formatDateSeconds(p.pix.expiresAt)}</dd>
          </dl>
        </Card>
        <div className="stack">
          <CheckoutCard payment={p} />
          <DueTermsCard payment={p} />
          <Card title="Pix QR code">
            <div className="qr">
              {p.pix.qrCodePng.length > 'data:image/png;base64,'.length ? (
                <img src={p.pix.qrCodePng} alt="QR code of the Pix BR Code" width={200} height={200} />
              ) : (
                <Empty>No QR image.</Empty>
              )}
            </div>
            <label className="label" htmlFor="br-code">
              BR Code (Pix copia e cola)
            </label>
            <div className="secret-row">
              <textarea id="br-code" className="mono brcode" readOnly value={p.pix.copyPaste} rows={4} onFocus={(e) => e.currentTarget.select()} />
              <CopyButton text={p.pix.copyPaste} />
            </div>
          </Card>
        </div>
      </div>

      <RefundsCard payment={p} />

      <PaymentAttempts attempts={p.attempts} refunds={p.refunds} accounts={accounts} catalogue={catalogue} />

      <Card title="Event timeline">{p.events.length === 0 ? <Empty>No provider event yet.</Empty> : <Timeline events={p.events} payment={p} />}</Card>

      <DeliveriesCard
        deliveries={p.deliveries}
        noWebhookUrl={!!merchant && !merchant.webhook_url}
        onRedelivered={(text, ok) => {
          setNotice({ text, ok });
          void detail.reload();
        }}
      />
    </>
  );
}

/**
 * The payment's public page (docs/checkout.md): its address to send the payer, where it sends the
 * payer back once paid, and the payment link it was opened from.
 */
function CheckoutCard({ payment: p }: { payment: Detail }) {
  return (
    <Card title="Checkout page">
      <PublicLink id="checkout-url" label="Checkout link" url={p.checkoutUrl} what="the checkout page" />
      <p className="muted small">Send it to the payer: the page shows the QR code and the copia e cola, and follows the payment&apos;s status as it changes.</p>
      {(p.returnUrl || p.paymentLinkId) && (
        <dl className="fields">
          {p.returnUrl && (
            <>
              <dt>Returns to</dt>
              <dd className="mono">{p.returnUrl}</dd>
            </>
          )}
          {p.paymentLinkId && (
            <>
              <dt>Payment link</dt>
              <dd>
                <Link to={`/admin/payment-links/${p.paymentLinkId}`} className="mono">
                  {p.paymentLinkId}
                </Link>
              </dd>
            </>
          )}
        </dl>
      )}
    </Card>
  );
}

function AskedRefund({ refund, onClose }: { refund: CreatedRefund; onClose: () => void }) {
  const { ok, text } = refundOutcome(refund);
  return (
    <Notice kind={ok ? 'success' : 'error'} onClose={onClose}>
      {text}
    </Notice>
  );
}

const OUTCOME_TEXT: Record<string, string> = {
  applied: 'applied',
  ignored: 'ignored (not a possible change)',
  amount_mismatch: 'not applied: amount differs',
  unmatched: 'unmatched',
};
const FORWARD_TEXT: Record<string, string> = { queued: 'forwarded to the merchant', no_webhook_url: 'not forwarded: no webhook URL', none: 'not forwarded' };

/** A due-date charge paid with another amount than was due: it is paid all the same (docs/due-charges.md), so it must not read "not applied". */
const PAID_MISMATCH_TEXT = 'paid: amount differs from what was due';

function Timeline({ events, payment }: { events: PaymentEvent[]; payment: Pick<Detail, 'due'> }) {
  return (
    <ol className="timeline">
      {events.map((e) => {
        const paidMismatch = isPaidMismatch(e, payment);
        return (
          <li key={e.id} className={`timeline-item outcome-${paidMismatch ? 'paid_mismatch' : e.outcome}`}>
            <div className="timeline-dot" aria-hidden="true" />
            <div>
              <div>
                <strong>{e.type}</strong>{' '}
                {paidMismatch ? <Badge value="pending" label={PAID_MISMATCH_TEXT} /> : <Badge value={e.outcome} label={OUTCOME_TEXT[e.outcome] ?? e.outcome} />}
              </div>
              <div className="small">
                {e.from_status && e.to_status ? (
                  <>
                    {e.from_status} → {e.to_status}
                  </>
                ) : null}
                {e.amount != null && <> · reported {formatMoney(e.amount)}</>}
                {e.amount_due != null && <> · {formatMoney(e.amount_due)} was due</>} · {FORWARD_TEXT[e.forward] ?? e.forward} · via {e.source}
              </div>
              {e.note && <div className="small muted">{e.note}</div>}
              <div className="small muted">{formatDate(e.created_at)}</div>
            </div>
          </li>
        );
      })}
    </ol>
  );
}

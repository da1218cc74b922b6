import { useEffect, useState } from 'react';
import { api } from '../api';
import { formatDateSeconds, formatDocument, formatMoney } from '../format';
import { RecordUnloaded } from '../record';
import { Link } from '../router';
import { RECURRENCE_STATUS_LABELS, type Merchant, type RecurrenceDetail as Detail } from '../types';
import { Badge, Button, Card, CopyButton, Notice, PageHeader, useLoad } from '../ui';
import { DeliveriesCard } from './delivery-bits';
import { EnvironmentBadge } from './provider-account-form';
import { CancelRecurrenceDialog, RecurrenceSimulatePanel, useSimulation } from './recurrence-actions';
import { CANCELLER_LABELS, formatCalendarDay, JOURNEY_LABELS, recurrenceAmount, RETRY_LABELS } from './recurrence-format';
import { ChargesCard, HistoryCard } from './recurrence-history';
import { TestBadge } from './test-mode';
import { PublicLink } from './checkout-link';

/** One Pix Automático recurrence (docs/dashboard.md, Recurrences): its terms, its QR while pending, its charges, history and deliveries. */
export function RecurrenceDetail({ id }: { id: string }) {
  const detail = useLoad(() => api<Detail>('GET', `/recurrences/${encodeURIComponent(id)}`), [id]);
  const [merchant, setMerchant] = useState<Merchant>();
  const [notice, setNotice] = useState<{ text: string; ok: boolean }>();
  const [cancelling, setCancelling] = useState(false);
  const simulation = useSimulation((value, outcome) => {
    if (value) detail.setData(value);
    setNotice(outcome);
  });
  const r = detail.data;

  useEffect(() => {
    if (!r || merchant?.id === r.merchant_id) return;
    api<Merchant>('GET', `/merchants/${r.merchant_id}`).then(setMerchant, () => undefined);
  }, [r, merchant]);

  // While a forward waits for its next attempt, keep the page current.
  const waiting = r?.deliveries.some((d) => d.status === 'pending') ?? false;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void detail.reload(), 2000);
    return () => clearInterval(timer);
  }, [waiting, detail.reload]);

  if (!r) return <RecordUnloaded title="Recurrence" error={detail.error} back={{ to: '/admin/recurrences', label: 'Back to recurrences' }} />;

  return (
    <>
      <div className="crumbs">
        <Link to="/admin/recurrences">Recurrences</Link> / <span className="mono">{r.id}</span>
      </div>
      <PageHeader
        title={
          <>
            {recurrenceAmount(r)} <Badge value={r.status} label={RECURRENCE_STATUS_LABELS[r.status].toLowerCase()} />
            <TestBadge environment={r.environment} />
          </>
        }
        subtitle={
          <>
            {r.externalId} · {merchant ? <Link to={`/admin/merchants/${merchant.id}`}>{merchant.name}</Link> : <span className="mono">{r.merchant_id}</span>}
          </>
        }
        actions={
          <>
            {r.can_cancel && (
              <Button kind="danger" onClick={() => setCancelling(true)}>
                Cancel recurrence
              </Button>
            )}
            <Button onClick={() => void detail.reload()} busy={detail.loading}>
              Refresh
            </Button>
          </>
        }
      />
      {cancelling && (
        <CancelRecurrenceDialog
          recurrence={r}
          onClose={() => setCancelling(false)}
          onCancelled={(value) => {
            setCancelling(false);
            detail.setData(value);
            setNotice({ ok: true, text: 'The recurrence was cancelled at the PSP: no further cycle can be charged.' });
          }}
          onConflict={(message) => {
            setCancelling(false);
            setNotice({ ok: false, text: message });
            void detail.reload();
          }}
        />
      )}
      {notice && (
        <Notice kind={notice.ok ? 'success' : 'error'} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {r.can_simulate && <RecurrenceSimulatePanel recurrence={r} simulation={simulation} />}

      <div className="grid-2">
        <Card title="Details">
          <dl className="fields">
            <dt>Recurrence id</dt>
            <dd className="mono">{r.id}</dd>
            <dt>External id</dt>
            <dd className="mono">{r.externalId}</dd>
            <dt>Payer</dt>
            <dd>
              {r.payer.name} · <span className="mono">{formatDocument(r.payer.document)}</span>
            </dd>
            <dt>Contract</dt>
            <dd>
              <span className="mono">{r.contract.id}</span>
              {r.contract.description && <> · {r.contract.description}</>}
            </dd>
            <dt>Amount</dt>
            <dd>{r.amount != null ? `${formatMoney(r.amount)}, fixed` : `Variable, at least ${formatMoney(r.minimumAmount ?? 0)}`}</dd>
            <dt>Frequency</dt>
            <dd>{r.frequency}</dd>
            <dt>Period</dt>
            <dd>
              {formatCalendarDay(r.startDate)} – {r.endDate ? formatCalendarDay(r.endDate) : 'no end date'}
            </dd>
            <dt>Retries</dt>
            <dd>{RETRY_LABELS[r.retryPolicy]}</dd>
            <dt>Journey</dt>
            <dd>{JOURNEY_LABELS[r.journey]}</dd>
            {r.firstPaymentId && (
              <>
                <dt>First payment</dt>
                <dd>
                  <Link to={`/admin/payments/${r.firstPaymentId}`} className="mono">
                    {r.firstPaymentId}
                  </Link>
                </dd>
              </>
            )}
            {r.cancelledBy && (
              <>
                <dt>Cancelled by</dt>
                <dd>{CANCELLER_LABELS[r.cancelledBy]}</dd>
              </>
            )}
            <dt>Provider</dt>
            <dd>{r.provider}</dd>
            <dt>Environment</dt>
            <dd>
              <EnvironmentBadge environment={r.environment} />
            </dd>
            <dt>Created</dt>
            <dd>{formatDateSeconds(r.createdAt)}</dd>
            <dt>Updated</dt>
            <dd>{formatDateSeconds(r.updatedAt)}</dd>
          </dl>
        </Card>
        <AuthorizationCard recurrence={r} />
      </div>

      <ChargesCard charges={r.charges} simulation={r.can_simulate ? simulation : undefined} />
      <HistoryCard events={r.events} />
      <DeliveriesCard
        deliveries={r.deliveries}
        noWebhookUrl={!!merchant && !merchant.webhook_url}
        onRedelivered={(text, ok) => {
          setNotice({ text, ok });
          void detail.reload();
        }}
      />
    </>
  );
}

/** The QR the payer scans in their bank app to authorize, while they have not answered; afterwards, what became of it. */
function AuthorizationCard({ recurrence: r }: { recurrence: Detail }) {
  if (!r.authorization) {
    const why =
      r.status === 'pending_authorization'
        ? r.journey === 'request'
          ? "The payer's bank was asked directly: the payer answers there, with no QR code."
          : 'The PSP has not given the authorization QR code yet.'
        : `The payer's answer is in: the recurrence is ${RECURRENCE_STATUS_LABELS[r.status].toLowerCase()}, and its authorization QR code is no longer shown.`;
    return (
      <Card title="Authorization">
        <p className="muted">{why}</p>
      </Card>
    );
  }
  const { copyPaste, qrCodePng, expiresAt, checkoutUrl } = r.authorization;
  return (
    <Card title="Authorization QR code">
      <div className="qr">
        <img src={qrCodePng} alt="QR code the payer scans to authorize the recurrence" width={200} height={200} />
      </div>
      <p className="muted small">
        The payer scans it in their bank app and authorizes {recurrenceAmount(r)}. Valid until {formatDateSeconds(expiresAt)}.
      </p>
      <label className="label" htmlFor="rec-br-code">
        BR Code (Pix copia e cola)
      </label>
      <div className="secret-row">
        <textarea id="rec-br-code" className="mono brcode" readOnly value={copyPaste} rows={4} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton text={copyPaste} />
      </div>
      <PublicLink id="rec-checkout-url" label="Authorization page" url={checkoutUrl} what="the authorization page" />
      <p className="muted small">Or send the payer this page: it shows the same QR code and copia e cola, and follows the answer as it comes.</p>
    </Card>
  );
}

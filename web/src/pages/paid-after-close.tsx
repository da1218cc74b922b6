import { api, query } from '../api';
import { formatMoney } from '../format';
import { Link } from '../router';
import type { Merchant, Page, Payment, PaymentDetail } from '../types';
import { Badge, Button, Card, Notice, useLoad } from '../ui';
import { leftCents, pendingCents } from './payment-refunds';

/**
 * Money received after close (docs/api.md, States; docs/dashboard.md): a Pix the PSP reported for a
 * cancelled or expired payment made it `paid` with `paidAfterClose`. The money is the payer's, so
 * the dashboard puts it where an operator looks first: a notice at the top of the payment's page
 * with the refund, and a marker in the payments list.
 */

/** How the payment had closed before its Pix arrived, read from the event that paid it. */
function closedAs(payment: Pick<PaymentDetail, 'events'>): string {
  const paying = payment.events.find((e) => e.outcome === 'applied' && e.to_status === 'paid' && (e.from_status === 'cancelled' || e.from_status === 'expired'));
  if (paying?.from_status === 'expired') return 'had expired';
  if (paying?.from_status === 'cancelled') return 'was cancelled';
  return 'was closed';
}

/** The notice at the top of a payment paid after close: what to do while it holds the money, and how its return stands. */
export function AfterCloseNotice({ payment, onRefund }: { payment: PaymentDetail; onRefund: () => void }) {
  if (!payment.paidAfterClose) return null;
  const received = formatMoney(payment.paidAmount ?? payment.amount);
  const pending = pendingCents(payment);
  if (payment.can_refund) {
    return (
      <Notice kind="warning">
        <div className="after-close">
          <div>
            <strong>Action needed: refund it.</strong> The Pix of {received} arrived after this payment {closedAs(payment)}: the money was received, and it belongs to the payer.
            Nothing was sold for it, so return it.
            {pending > 0 && <> {formatMoney(pending / 100)} of it is already being refunded.</>}
          </div>
          <Button kind="primary" onClick={onRefund}>
            Refund {formatMoney(leftCents(payment) / 100)}
          </Button>
        </div>
      </Notice>
    );
  }
  if (pending > 0) {
    return (
      <Notice kind="info">
        Money received after close is being refunded: the Pix of {received} arrived after this payment {closedAs(payment)}; {formatMoney(pending / 100)} pending at the PSP. This
        page follows it.
      </Notice>
    );
  }
  if (payment.status === 'refunded') {
    return (
      <Notice kind="success">
        Money received after close was returned to the payer: the Pix of {received} arrived after this payment {closedAs(payment)}, and {formatMoney(payment.refundedAmount)} was
        refunded.
      </Notice>
    );
  }
  return (
    <Notice kind="warning">
      <strong>Action needed: refund it.</strong> The Pix of {received} arrived after this payment {closedAs(payment)}, and its provider cannot refund it through the gateway: return
      it at the PSP.
    </Notice>
  );
}

/** How many the overview counts before saying "or more". */
const OVERVIEW_LIMIT = 100;

/**
 * The overview's notice: payments paid after close that still hold all the money (`paid`), first
 * thing on the page, linked to the list of them. Nothing while there is none (or it cannot be read:
 * the list says why).
 */
export function AfterCloseOverview() {
  const found = useLoad(() => api<Page<Payment>>('GET', `/payments${query({ paid_after_close: 'true', status: 'paid', limit: OVERVIEW_LIMIT })}`), []);
  const count = found.data?.items.length ?? 0;
  if (count === 0) return null;
  const many = found.data?.next_cursor ? `${OVERVIEW_LIMIT} or more payments` : count === 1 ? '1 payment' : `${count} payments`;
  return (
    <Notice kind="warning">
      <strong>Action needed: refund {count === 1 ? 'it' : 'them'}.</strong> {many} received a Pix after {count === 1 ? 'it was' : 'they were'} cancelled or expired, and{' '}
      {count === 1 ? 'holds' : 'hold'} the payer&apos;s money. <Link to="/admin/payments?status=paid&paid_after_close=true">See them</Link>
    </Notice>
  );
}

/** The payments list's marker: a payment paid after close, and whether it still holds the payer's money. */
export function AfterCloseMarker({ payment }: { payment: Pick<Payment, 'paidAfterClose' | 'status'> }) {
  if (!payment.paidAfterClose) return null;
  const holding = payment.status === 'paid' || payment.status === 'partially_refunded';
  return (
    <>
      {' '}
      {holding ? (
        <span className="badge badge-action" title="The Pix arrived after the payment was cancelled or expired: the money belongs to the payer. Open the payment to refund it.">
          after close: refund it
        </span>
      ) : (
        <span className="badge badge-gray" title="The Pix arrived after the payment was cancelled or expired; it was refunded.">
          after close
        </span>
      )}
    </>
  );
}

/** The merchant's `refund_after_close`, on its page: what happens to such money, and the switch. */
export function RefundAfterCloseCard({ merchant, busy, onChange }: { merchant: Merchant; busy: boolean; onChange: (on: boolean) => void }) {
  const on = merchant.refund_after_close;
  return (
    <Card
      title="Money received after close"
      actions={
        <Button kind={on ? 'secondary' : 'primary'} busy={busy} onClick={() => onChange(!on)}>
          {on ? 'Stop refunding automatically' : 'Refund automatically'}
        </Button>
      }
    >
      <p>
        <Badge value={on ? 'active' : 'inactive'} label={on ? 'Refunded automatically' : 'Left to the operator'} />
      </p>
      <p className="muted small">
        A payer can still pay a Pix after its payment was cancelled or expired. The payment then becomes paid, marked &ldquo;after close&rdquo;, and the merchant receives{' '}
        <span className="mono">payment.confirmed</span> with <span className="mono">paidAfterClose: true</span>.{' '}
        {on
          ? 'The gateway then refunds it in full on its own, and the merchant receives refund.succeeded and payment.refunded.'
          : 'The payment then waits on its page with "Action needed: refund it".'}
      </p>
    </Card>
  );
}

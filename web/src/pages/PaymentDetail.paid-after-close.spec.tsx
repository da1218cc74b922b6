import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { merchant, paymentEvent, providerCatalogue, refund, refundablePayment } from '../../test/factories';
import { useFakeApi } from '../../test/fake-api';
import type { PaymentDetail as Detail } from '../types';
import { PaymentDetail } from './PaymentDetail';

/** A payment whose Pix arrived after it was cancelled (docs/api.md, States): paid, flagged, nothing refunded. */
const receivedAfterClose = (overrides: Partial<Detail> = {}) =>
  refundablePayment({
    id: 'pay_late',
    merchantId: 'mer_ana',
    paidAfterClose: true,
    events: [
      paymentEvent({ type: 'payment.cancelled', from_status: 'pending', to_status: 'cancelled', amount: null }),
      paymentEvent({
        type: 'payment.confirmed',
        from_status: 'cancelled',
        to_status: 'paid',
        note: 'Paid after the payment was cancelled: the money was received and must go back to the payer.',
      }),
    ],
    ...overrides,
  });

describe('PaymentDetail: money received after close', () => {
  const api = useFakeApi();
  beforeEach(() => {
    api.on('GET /merchants/{id}', merchant({ id: 'mer_ana' }));
    api.on('GET /providers', providerCatalogue());
  });
  const show = (detail: Detail) => {
    api.on('GET /payments/{id}', detail);
    render(<PaymentDetail id={detail.id} />);
  };
  const notice = async () => (await screen.findByText(/Action needed: refund it/)).closest<HTMLElement>('.notice')!;

  it('puts "Action needed: refund it" first, says why, and its button opens the refund', async () => {
    show(receivedAfterClose());
    const box = await notice();
    expect(box.className).toBe('notice notice-warning');
    expect(box.textContent).toContain('The Pix of R$\u00a010,50 arrived after this payment was cancelled');
    // Before the details: the first thing on the page after its heading.
    expect(box.compareDocumentPosition(screen.getByRole('heading', { name: 'Details' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(within(box).getByRole('button', { name: 'Refund R$\u00a010,50' }));
    expect(within(screen.getByRole('dialog', { name: 'Refund this payment' })).getByRole('radio', { name: 'Everything left: R$\u00a010,50' })).toHaveProperty('checked', true);
  });

  it('names an expiry as the reason when the payment had expired', async () => {
    show(
      receivedAfterClose({
        events: [paymentEvent({ type: 'payment.confirmed', from_status: 'expired', to_status: 'paid' })],
      }),
    );
    expect((await notice()).textContent).toContain('arrived after this payment had expired');
  });

  it('says the money is on its way back while a refund of it is pending, with nothing to do', async () => {
    show(
      receivedAfterClose({
        can_refund: false,
        refunds: [refund({ amount: 10.5, status: 'pending', reason: 'Received after the payment was cancelled; refunded automatically (refund_after_close)' })],
      }),
    );
    const box = (await screen.findByText(/Money received after close is being refunded/)).closest('.notice')!;
    expect(box.className).toBe('notice notice-info');
    expect(box.textContent).toContain('R$\u00a010,50 pending at the PSP');
    expect(screen.queryByText(/Action needed/)).toBeNull();
    expect(within(box as HTMLElement).queryByRole('button')).toBeNull();
  });

  it('says it was returned once refunded, and no action is asked', async () => {
    show(receivedAfterClose({ status: 'refunded', refundedAmount: 10.5, can_refund: false, refunds: [refund({ amount: 10.5, status: 'succeeded' })] }));
    expect((await screen.findByText(/Money received after close was returned to the payer/)).closest('.notice')!.className).toBe('notice notice-success');
    expect(screen.queryByText(/Action needed/)).toBeNull();
  });

  it('shows nothing of the sort for a payment paid while open', async () => {
    show(refundablePayment({ id: 'pay_ok', merchantId: 'mer_ana' }));
    await screen.findByRole('heading', { name: 'Details' });
    expect(screen.queryByText(/after close/)).toBeNull();
  });
});

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows } from '../../test/dom';
import { merchant, paymentAttempt, paymentDetail, providerCatalogue, refund, refundablePayment } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { formatDate } from '../format';
import type { PaymentDetail as Detail } from '../types';
import { PaymentDetail } from './PaymentDetail';

const ASKED = '2024-05-02T14:00:00.000Z';
const SETTLED = '2024-05-02T14:03:00.000Z';

describe('PaymentDetail: refunds and cancellation', () => {
  const api = useFakeApi();
  beforeEach(() => {
    api.on('GET /merchants/{id}', merchant({ id: 'mer_ana' }));
    api.on('GET /providers', providerCatalogue());
  });
  const show = (detail: Detail) => {
    api.on('GET /payments/{id}', detail);
    render(<PaymentDetail id={detail.id} />);
  };
  const card = async () => within((await screen.findByRole('heading', { name: 'Refunds' })).closest('section')!);
  const dialog = (name: string | RegExp) => screen.getByRole('dialog', { name });
  const refundRequests = () => api.requests('POST /payments/{id}/refunds');
  // (getByText matches text with its spaces normalised: there, R$ 3,50's no-break space is a space.)

  describe('the refunds card', () => {
    it("lists every refund with its amount, status, origin, reason, failure, times and the PSP's id, and sums them up", async () => {
      show(
        refundablePayment({
          id: 'pay_1',
          merchantId: 'mer_ana',
          status: 'partially_refunded',
          refundedAmount: 3.5,
          refunds: [
            refund({ amount: 3.5, status: 'succeeded', reason: 'Item returned', providerRefundId: 'D1234567820240502abc', createdAt: ASKED, settledAt: SETTLED }),
            refund({ amount: 1, status: 'failed', failureReason: 'The payer’s account is closed.', createdAt: ASKED, providerRefundId: 'D99' }),
            refund({ amount: 2, status: 'pending', origin: 'med', createdAt: ASKED }),
          ],
        }),
      );
      const refunds = await card();
      expect(refunds.getByText('R$ 3,50 of R$ 10,50 refunded · R$ 2,00 pending · R$ 5,00 left')).toBeTruthy();
      const asked = formatDate(ASKED);
      expect(tableRows('Refunds')).toEqual([
        ['R$\u00a03,50', 'refunded', 'merchant', 'Item returned', asked, formatDate(SETTLED), 'D1234567820240502abc'],
        ['R$\u00a01,00', 'failedThe payer’s account is closed.', 'merchant', '—', asked, '—', 'D99'],
        ['R$\u00a02,00', 'pending', 'MED return', '—', asked, 'not yet', '—'],
      ]);
      // The origin's badge says in words where the refund came from.
      expect(refunds.getByText('MED return').getAttribute('title')).toMatch(/^A MED return: the payer's bank claimed the money back/);
      expect(refunds.getAllByText('merchant')[0]!.getAttribute('title')).toBe('Asked for by the merchant, through the API or this dashboard.');
      // The status in the heading has a style of its own.
      expect(within(screen.getByRole('heading', { level: 1 })).getByText('partially refunded').className).toBe('badge badge-violet');
      expect((await screen.findByText('Refunded')).nextElementSibling!.textContent).toBe('R$\u00a03,50 · R$\u00a02,00 pending');
    });

    it("names routing's refund of an orphan charge, which does not count toward the payment", async () => {
      const orphan = paymentAttempt({
        attempt: 1,
        account_id: null,
        provider: 'sandbox',
        outcome: 'ambiguous',
        orphan: { status: 'paid', tries: 1, last_error: null, updated_at: ASKED },
      });
      show(
        refundablePayment({
          id: 'pay_1',
          merchantId: 'mer_ana',
          attempts: [orphan],
          refunds: [refund({ amount: 10.5, origin: 'routing', attemptId: orphan.id, status: 'succeeded', settledAt: SETTLED })],
        }),
      );
      const refunds = await card();
      expect(refunds.getByText('R$ 0,00 of R$ 10,50 refunded · R$ 10,50 left')).toBeTruthy();
      expect(tableRows('Refunds')[0]!.slice(0, 4)).toEqual(['R$\u00a010,50', 'refunded', 'routing (orphan charge)', 'orphan charge of attempt 1']);
      expect(refunds.getByText('routing (orphan charge)').getAttribute('title')).toMatch(/It is not part of this payment and does not count toward its refunded amount/);
      expect(screen.queryByText('Refunded')).toBeNull();
    });

    it('says when a paid payment has no refund yet, and shows no card for a pending one', async () => {
      show(refundablePayment({ id: 'pay_1', merchantId: 'mer_ana' }));
      expect((await card()).getByText('No refund yet.')).toBeTruthy();
      expect(screen.getByText('R$ 0,00 of R$ 10,50 refunded · R$ 10,50 left')).toBeTruthy();
    });

    it('shows no refunds card and no buttons for a pending payment the provider cannot cancel', async () => {
      show(paymentDetail({ id: 'pay_1', merchantId: 'mer_ana', status: 'pending' }));
      await screen.findByRole('heading', { name: 'Event timeline' });
      expect(screen.queryByRole('heading', { name: 'Refunds' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Cancel payment' })).toBeNull();
    });
  });

  describe('refunding', () => {
    const open = async () => {
      await userEvent.click(await screen.findByRole('button', { name: 'Refund' }));
      return dialog('Refund this payment');
    };

    it('refunds what is left after the pending refunds, once the operator has confirmed the amount, and reads the payment again', async () => {
      const paid = refundablePayment({
        id: 'pay_1',
        merchantId: 'mer_ana',
        status: 'partially_refunded',
        refundedAmount: 3.5,
        // Pending refunds hold their amount; routing's refund of an orphan is not the payment's.
        refunds: [refund({ amount: 3.5, status: 'succeeded' }), refund({ amount: 2, status: 'pending' }), refund({ amount: 10.5, origin: 'routing', status: 'pending' })],
      });
      show(paid);
      api.on('POST /payments/{id}/refunds', refund({ amount: 5, status: 'pending' }));
      const form = await open();
      // Focus moves into the dialog, on the first choice.
      expect(document.activeElement).toBe(within(form).getByRole('radio', { name: 'Everything left: R$\u00a05,00' }));
      expect(within(form).getByRole('radio', { name: 'Everything left: R$\u00a05,00' })).toHaveProperty('checked', true);
      await userEvent.click(within(form).getByRole('button', { name: 'Review refund' }));
      const confirm = dialog('Confirm the refund');
      expect(within(confirm).getByText('Refund R$ 5,00 to the payer?')).toBeTruthy();
      expect(refundRequests()).toHaveLength(0);
      expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Refund R$\u00a05,00' }));
      await userEvent.click(within(confirm).getByRole('button', { name: 'Refund R$\u00a05,00' }));
      expect((await screen.findByRole('status')).textContent).toContain('Refund of R$\u00a05,00 asked for; the PSP settles it shortly, and this page follows it.');
      expect(screen.queryByRole('dialog')).toBeNull();
      const [sent] = refundRequests();
      expect(sent!.params.id).toBe('pay_1');
      expect(sent!.body).toEqual({ amount: 5 });
      expect(sent!.headers['idempotency-key']).toMatch(/^dashboard-refund-[0-9a-f-]{36}$/);
      await waitFor(() => expect(api.requests('GET /payments/{id}')).toHaveLength(2));
    });

    it('refunds part of the payment with a reason, after checking the amount the operator typed', async () => {
      show(refundablePayment({ id: 'pay_1', merchantId: 'mer_ana' }));
      api.on('POST /payments/{id}/refunds', refund({ amount: 3.5, status: 'succeeded' }));
      const form = await open();
      await userEvent.click(within(form).getByRole('radio', { name: 'Part of it' }));
      const amount = within(form).getByRole('textbox', { name: 'Amount (R$)' });
      const review = () => userEvent.click(within(form).getByRole('button', { name: 'Review refund' }));
      await userEvent.type(amount, '3,505');
      await review();
      expect(within(form).getByText('Enter an amount in reais, such as 3,50, with at most two decimals.')).toBeTruthy();
      expect(document.activeElement).toBe(amount);
      await userEvent.clear(amount);
      await userEvent.type(amount, '10,51');
      await review();
      expect(within(form).getByText('At most R$ 10,50 is left to refund.')).toBeTruthy();
      await userEvent.clear(amount);
      await userEvent.type(amount, '0');
      await review();
      expect(within(form).getByText('Enter an amount greater than zero.')).toBeTruthy();
      await userEvent.clear(amount);
      await userEvent.type(amount, '3,5');
      await userEvent.type(within(form).getByRole('textbox', { name: 'Reason (optional)' }), '  Item returned ');
      await review();
      const confirm = dialog('Confirm the refund');
      expect(within(confirm).getByText('Refund R$ 3,50 to the payer?')).toBeTruthy();
      expect(within(confirm).getByText('R$ 7,00 is left to refund after this.')).toBeTruthy();
      expect(within(confirm).getByText('Item returned')).toBeTruthy();
      await userEvent.click(within(confirm).getByRole('button', { name: 'Refund R$\u00a03,50' }));
      expect((await screen.findByRole('status')).textContent).toContain('R$\u00a03,50 refunded to the payer.');
      expect(refundRequests().map((r) => r.body)).toEqual([{ amount: 3.5, reason: 'Item returned' }]);
    });

    it('follows the refund it asked for as the page reads the payment again', async () => {
      const paid = refundablePayment({ id: 'pay_1', merchantId: 'mer_ana' });
      show(paid);
      const asked = refund({ id: 'ref_1', amount: 10.5, status: 'pending' });
      api.on('POST /payments/{id}/refunds', () => {
        api.on('GET /payments/{id}', { ...paid, can_refund: false, refunds: [{ ...asked, status: 'failed', failureReason: 'Conta do pagador encerrada.' }] });
        return asked;
      });
      await open();
      await userEvent.click(screen.getByRole('button', { name: 'Review refund' }));
      expect(within(dialog('Confirm the refund')).getByText('Nothing is left to refund after this.')).toBeTruthy();
      await userEvent.click(screen.getByRole('button', { name: 'Refund R$\u00a010,50' }));
      expect((await screen.findByRole('alert')).textContent).toContain(
        'The PSP did not carry out the refund of R$\u00a010,50: Conta do pagador encerrada. The amount can be refunded again.',
      );
      await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
      expect(screen.queryByRole('alert')).toBeNull();
    });

    it('sends the same Idempotency-Key on a retry, shows the error in the dialog, and a new key for a new dialog', async () => {
      show(refundablePayment({ id: 'pay_1', merchantId: 'mer_ana' }));
      api.on(
        'POST /payments/{id}/refunds',
        new Failure(502, { code: 'UPSTREAM_ERROR', message: 'The payment provider returned an error.', details: { provider_message: 'Saldo insuficiente' } }),
      );
      await open();
      await userEvent.click(screen.getByRole('button', { name: 'Review refund' }));
      const refundButton = () => within(dialog('Confirm the refund')).getByRole('button', { name: 'Refund R$\u00a010,50' });
      await userEvent.click(refundButton());
      expect((await within(dialog('Confirm the refund')).findByRole('alert')).textContent).toBe('The payment provider did not accept this: Saldo insuficiente.');
      // A network failure: the answer was lost; the retry must be the same refund.
      api.on('POST /payments/{id}/refunds', () => Promise.reject(new TypeError('Failed to fetch')));
      await userEvent.click(refundButton());
      expect((await within(dialog('Confirm the refund')).findByRole('alert')).textContent).toBe('The gateway could not be reached. Check your connection and try again.');
      // Back to change nothing, then again: still the same key.
      await userEvent.click(screen.getByRole('button', { name: 'Back' }));
      await userEvent.click(screen.getByRole('button', { name: 'Review refund' }));
      api.on('POST /payments/{id}/refunds', refund({ amount: 10.5 }));
      await userEvent.click(refundButton());
      await screen.findByRole('status');
      const keys = refundRequests().map((r) => r.headers['idempotency-key']);
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(1);

      await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
      await userEvent.click(screen.getByRole('button', { name: 'Review refund' }));
      await userEvent.click(refundButton());
      await waitFor(() => expect(refundRequests()).toHaveLength(4));
      expect(refundRequests()[3]!.headers['idempotency-key']).not.toBe(keys[0]);
    });

    it("shows the API's refusal in the dialog, and reads the payment again when its state changed", async () => {
      show(refundablePayment({ id: 'pay_1', merchantId: 'mer_ana' }));
      api.on(
        'POST /payments/{id}/refunds',
        new Failure(422, { code: 'REFUND_EXCEEDS_AVAILABLE', message: 'The refund of 10.50 is more than the 7.00 left to refund.', details: { available: 7 } }),
      );
      await open();
      await userEvent.click(screen.getByRole('button', { name: 'Review refund' }));
      await userEvent.click(screen.getByRole('button', { name: 'Refund R$\u00a010,50' }));
      expect((await within(dialog('Confirm the refund')).findByRole('alert')).textContent).toBe('The refund of 10.50 is more than the 7.00 left to refund.');
      expect(api.requests('GET /payments/{id}')).toHaveLength(1);

      api.on(
        'POST /payments/{id}/refunds',
        new Failure(409, { code: 'PAYMENT_STATE_CONFLICT', message: 'A refunded payment cannot be refunded: only paid or partially refunded payments can.' }),
      );
      // Meanwhile R$ 3,50 was refunded at the PSP's portal: the page read again shows less left.
      api.on(
        'GET /payments/{id}',
        refundablePayment({
          id: 'pay_1',
          merchantId: 'mer_ana',
          status: 'partially_refunded',
          refundedAmount: 3.5,
          refunds: [refund({ amount: 3.5, status: 'succeeded', origin: 'psp' })],
        }),
      );
      await userEvent.click(screen.getByRole('button', { name: 'Refund R$\u00a010,50' }));
      expect((await within(dialog('Confirm the refund')).findByRole('alert')).textContent).toBe(
        'A refunded payment cannot be refunded: only paid or partially refunded payments can.',
      );
      await waitFor(() => expect(api.requests('GET /payments/{id}')).toHaveLength(2));
      await screen.findByText('R$ 3,50 of R$ 10,50 refunded · R$ 7,00 left');
      // The confirmation still asks for the amount the operator reviewed, and a try sends that, never what is left now.
      await userEvent.click(within(dialog('Confirm the refund')).getByRole('button', { name: 'Refund R$\u00a010,50' }));
      await waitFor(() => expect(refundRequests()).toHaveLength(3));
      expect(refundRequests().map((r) => r.body)).toEqual([{ amount: 10.5 }, { amount: 10.5 }, { amount: 10.5 }]);
    });

    it('closes on Escape and on Cancel without sending anything', async () => {
      show(refundablePayment({ id: 'pay_1', merchantId: 'mer_ana' }));
      await open();
      await userEvent.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).toBeNull();
      await open();
      await userEvent.click(screen.getByRole('button', { name: 'Review refund' }));
      await userEvent.keyboard('{Escape}');
      expect(screen.queryByRole('dialog')).toBeNull();
      await open();
      await userEvent.click(within(dialog('Refund this payment')).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(refundRequests()).toHaveLength(0);
    });

    it('says nothing is left while the rest is pending, and offers nothing to send', async () => {
      show(refundablePayment({ id: 'pay_1', merchantId: 'mer_ana', refunds: [refund({ amount: 10.5, status: 'pending' })] }));
      const form = await open();
      expect(within(form).getByRole('status').textContent).toBe(
        'Nothing is left to refund while R$\u00a010,50 is pending at the PSP. If one of those refunds fails, its amount can be refunded again.',
      );
      expect(within(form).getByRole('button', { name: 'Review refund' })).toHaveProperty('disabled', true);
      // (Disabled by its fieldset.)
      expect(
        within(form)
          .getByRole('radio', { name: /^Part of it/ })
          .matches(':disabled'),
      ).toBe(true);
    });

    it('offers only a whole refund where the provider refunds only whole payments', async () => {
      const catalogue = providerCatalogue().map((d) => (d.name === 'banco-a' ? { ...d, capabilities: { ...d.capabilities, partial_refund: false } } : d));
      api.on('GET /providers', catalogue);
      show(refundablePayment({ id: 'pay_1', merchantId: 'mer_ana', provider: 'banco-a' }));
      // The catalogue arrives after the payment.
      await waitFor(() => expect(api.requests('GET /providers')).toHaveLength(1));
      const form = await open();
      await waitFor(() => expect(within(form).getByRole('radio', { name: /^Part of it/ })).toHaveProperty('disabled', true));
      expect(within(form).getByText(/banco-a refunds only whole payments/)).toBeTruthy();
    });
  });

  describe('cancelling', () => {
    const pending = () => paymentDetail({ id: 'pay_1', merchantId: 'mer_ana', status: 'pending', can_cancel: true });

    it('cancels a pending payment after a confirmation, and reads it again', async () => {
      show(pending());
      api.on('POST /payments/{id}/cancel', { ...pending(), status: 'cancelled' });
      await userEvent.click(await screen.findByRole('button', { name: 'Cancel payment' }));
      const confirm = dialog('Cancel this payment?');
      expect(confirm.textContent).toContain('The charge of R$\u00a010,50 is cancelled at sandbox');
      expect(api.requests('POST /payments/{id}/cancel')).toHaveLength(0);
      api.on('GET /payments/{id}', { ...pending(), status: 'cancelled', can_cancel: false });
      await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel payment' }));
      expect((await screen.findByRole('status')).textContent).toContain('The payment was cancelled at the PSP: it can no longer be paid.');
      await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('R$\u00a010,50 cancelled test'));
      expect(screen.queryByRole('button', { name: 'Cancel payment' })).toBeNull();
      expect(api.requests('POST /payments/{id}/cancel')[0]!.params.id).toBe('pay_1');
    });

    it('says why when the payment was paid meanwhile (409), and shows it paid', async () => {
      show(pending());
      api.on('POST /payments/{id}/cancel', new Failure(409, { code: 'PAYMENT_STATE_CONFLICT', message: 'It was paid before it could be cancelled.', details: { status: 'paid' } }));
      await userEvent.click(await screen.findByRole('button', { name: 'Cancel payment' }));
      api.on('GET /payments/{id}', refundablePayment({ id: 'pay_1', merchantId: 'mer_ana' }));
      await userEvent.click(within(dialog('Cancel this payment?')).getByRole('button', { name: 'Cancel payment' }));
      expect((await screen.findByRole('alert')).textContent).toContain('It was paid before it could be cancelled.');
      expect(screen.queryByRole('dialog')).toBeNull();
      await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('R$\u00a010,50 paid test'));
      expect(screen.getByRole('button', { name: 'Refund' })).toBeTruthy();
    });

    it("keeps the dialog open with the PSP's refusal, and closes on Keep it", async () => {
      show(pending());
      api.on('POST /payments/{id}/cancel', new Failure(502, { code: 'UPSTREAM_ERROR', message: 'The payment provider returned an error.', upstream_status: 503 }));
      await userEvent.click(await screen.findByRole('button', { name: 'Cancel payment' }));
      await userEvent.click(within(dialog('Cancel this payment?')).getByRole('button', { name: 'Cancel payment' }));
      expect((await within(dialog('Cancel this payment?')).findByRole('alert')).textContent).toBe(
        'The payment provider did not accept this (it answered 503): The payment provider returned an error.',
      );
      await userEvent.click(screen.getByRole('button', { name: 'Keep it' }));
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });

  describe("routing's refund of a paid orphan", () => {
    const paidOrphan = paymentAttempt({
      attempt: 1,
      account_id: null,
      provider: 'sandbox',
      outcome: 'ambiguous',
      orphan: { status: 'paid', tries: 1, last_error: null, updated_at: ASKED },
    });
    const withRefund = (status: 'pending' | 'succeeded' | 'failed') =>
      show(
        paymentDetail({
          id: 'pay_1',
          merchantId: 'mer_ana',
          status: 'paid',
          attempts: [paidOrphan, paymentAttempt({ attempt: 2, account_id: null, provider: 'sandbox' })],
          refunds: [refund({ amount: 10.5, origin: 'routing', attemptId: paidOrphan.id, status, failureReason: status === 'failed' ? 'NAO_REALIZADO' : null })],
        }),
      );
    const outcome = () => tableRows('Provider attempts')[0]![4];
    const when = formatDate(ASKED);

    it.each([
      ['pending', `no clear answer, moved onorphan paid 1 try · ${when}refund pending R$\u00a010,50`],
      ['succeeded', `no clear answer, moved onorphan paid 1 try · ${when}refunded R$\u00a010,50 back to the payer`],
    ] as const)("shows the orphan's refund %s, and no longer calls for the operator", async (status, text) => {
      withRefund(status);
      await screen.findByRole('heading', { name: 'Provider attempts' });
      expect(outcome()).toBe(text);
      expect(screen.queryByText(/Action needed/)).toBeNull();
    });

    it('calls for the operator when the refund failed', async () => {
      withRefund('failed');
      await screen.findByRole('heading', { name: 'Provider attempts' });
      expect(outcome()).toBe(`no clear answer, moved onorphan PAID: refund it 1 try · ${when}refund failed R$\u00a010,50: NAO_REALIZADO`);
      expect(screen.getByText(/Action needed/)).toBeTruthy();
    });
  });
});

import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows } from '../../test/dom';
import { attempt, listedDelivery, merchant, paymentAttempt, paymentDelivery, paymentDetail, paymentEvent, providerAccount, providerCatalogue } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { formatDate, formatDateSeconds } from '../format';
import { PaymentDetail } from './PaymentDetail';

describe('PaymentDetail', () => {
  const api = useFakeApi();
  const ana = merchant({ id: 'mer_ana', name: 'Loja da Ana' });
  beforeEach(() => api.on('GET /merchants/{id}', ana));

  it("heads the page with the amount, status, order and merchant, then the payment's details", async () => {
    api.on('GET /payments/{id}', paymentDetail({ id: 'pay_1', amount: 10.5, status: 'pending', externalId: 'order-1', merchantId: 'mer_ana' }));
    render(<PaymentDetail id="pay_1" />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('R$\u00a010,50 pending test');
    expect((await screen.findByRole('link', { name: 'Loja da Ana' })).getAttribute('href')).toBe('/admin/merchants/mer_ana');
    expect(screen.getByText('123.456.789-09')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'BR Code (Pix copia e cola)' })).toHaveProperty('value', paymentDetail().pix.copyPaste);
    expect(screen.getByRole('img', { name: 'QR code of the Pix BR Code' })).toBeTruthy();
    expect(api.requests('GET /payments/{id}')[0]!.params.id).toBe('pay_1');
  });

  it('gives the checkout link to copy or open, and says neither a return URL nor a payment link when it has none', async () => {
    const detail = paymentDetail({ id: 'pay_1', merchantId: 'mer_ana', checkoutUrl: 'http://localhost:3000/pay/Xq3LmT8vR2kZpW9nB4cY7hJd' });
    api.on('GET /payments/{id}', detail);
    render(<PaymentDetail id="pay_1" />);
    const card = within((await screen.findByRole('heading', { name: 'Checkout page' })).closest('section')!);
    expect(card.getByRole('textbox', { name: 'Checkout link' })).toHaveProperty('value', detail.checkoutUrl);
    const open = card.getByRole('link', { name: 'Open the checkout page in a new tab' });
    expect([open.getAttribute('href'), open.getAttribute('target'), open.getAttribute('rel')]).toEqual([detail.checkoutUrl, '_blank', 'noopener noreferrer']);
    const user = userEvent.setup();
    await user.click(card.getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(detail.checkoutUrl);
    expect(card.queryByText('Returns to')).toBeNull();
    expect(card.queryByText('Payment link')).toBeNull();
  });

  it('shows where the page sends the payer back and the payment link it came from, linked to its page', async () => {
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', returnUrl: 'https://shop.example.com/orders/1234', paymentLinkId: 'plink_3kTMd9Q2xLr8VbN1cZp4Wf7A' }));
    render(<PaymentDetail id="pay_1" />);
    const card = within((await screen.findByRole('heading', { name: 'Checkout page' })).closest('section')!);
    expect(card.getByText('Returns to').nextElementSibling!.textContent).toBe('https://shop.example.com/orders/1234');
    expect(card.getByRole('link', { name: 'plink_3kTMd9Q2xLr8VbN1cZp4Wf7A' }).getAttribute('href')).toBe('/admin/payment-links/plink_3kTMd9Q2xLr8VbN1cZp4Wf7A');
  });

  it("shows the PSP, the txid, the paying Pix's end-to-end id and who paid", async () => {
    const paid = paymentDetail({ merchantId: 'mer_ana', status: 'paid', provider: 'efi', paidAmount: 10.5, payer: { name: 'Bruno Lima', document: '***.654.321-**' } });
    api.on('GET /payments/{id}', { ...paid, pix: { ...paid.pix, txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2EabC', endToEndId: 'E00038166202601151200abcdefghijk' } });
    render(<PaymentDetail id="pay_1" />);
    expect(await screen.findByText('E00038166202601151200abcdefghijk')).toBeTruthy();
    expect(screen.getByText('k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2EabC')).toBeTruthy();
    expect(screen.getByText(/Bruno Lima/).textContent).toContain('***.654.321-**');
    expect(screen.getByText(/^efi/)).toBeTruthy();
  });

  it("shows the payer's e-mail the merchant gave with the recipient, and none when it gave none", async () => {
    const detail = paymentDetail({ merchantId: 'mer_ana' });
    api.on('GET /payments/{id}', { ...detail, recipient: { ...detail.recipient, email: 'ana@example.org' } });
    const { unmount } = render(<PaymentDetail id="pay_1" />);
    expect((await screen.findByText('Recipient')).nextElementSibling!.textContent).toBe('Ana Souza · 123.456.789-09 · ana@example.org');
    unmount();
    api.on('GET /payments/{id}', { ...detail, recipient: { ...detail.recipient, email: null } });
    render(<PaymentDetail id="pay_1" />);
    expect((await screen.findByText('Recipient')).nextElementSibling!.textContent).toBe('Ana Souza · 123.456.789-09');
  });

  it('names the environment of the account that charged the payment', async () => {
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', environment: 'production' }));
    render(<PaymentDetail id="pay_1" />);
    expect((await screen.findByText('Environment')).nextElementSibling!.textContent).toBe('production');
  });

  it("tells each provider event's outcome, change, amount, forwarding and source", async () => {
    const events = [
      paymentEvent({ type: 'payment.confirmed', outcome: 'applied', from_status: 'pending', to_status: 'paid', amount: 10.5, forward: 'queued', source: 'webhook' }),
      paymentEvent({
        type: 'payment.confirmed',
        outcome: 'amount_mismatch',
        from_status: null,
        to_status: null,
        amount: 9.99,
        forward: 'none',
        source: 'reconciliation',
        note: 'The provider reported 9.99.',
      }),
      paymentEvent({ type: 'payment.expired', outcome: 'ignored', from_status: 'paid', to_status: 'expired', amount: null, forward: 'no_webhook_url' }),
    ];
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', events }));
    render(<PaymentDetail id="pay_1" />);
    const items = within(await screen.findByRole('list')).getAllByRole('listitem');
    const when = formatDate(paymentEvent().created_at);
    expect(items.map((item) => item.textContent)).toEqual([
      `payment.confirmed appliedpending → paid · reported R$\u00a010,50 · forwarded to the merchant · via webhook${when}`,
      `payment.confirmed not applied: amount differs · reported R$\u00a09,99 · not forwarded · via reconciliationThe provider reported 9.99.${when}`,
      `payment.expired ignored (not a possible change)paid → expired · not forwarded: no webhook URL · via webhook${when}`,
    ]);
  });

  it('says when no event came yet and nothing was forwarded', async () => {
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana' }));
    render(<PaymentDetail id="pay_1" />);
    expect(await screen.findByText('No provider event yet.')).toBeTruthy();
    expect(screen.getByText('Nothing forwarded yet.')).toBeTruthy();
  });

  it('says events are not forwarded when the merchant has no webhook URL', async () => {
    api.on('GET /merchants/{id}', merchant({ id: 'mer_ana', webhook_url: null }));
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana' }));
    render(<PaymentDetail id="pay_1" />);
    expect(await screen.findByText('This merchant has no webhook URL: events are not forwarded.')).toBeTruthy();
  });

  it('shows each delivery with its state, last result and attempts, and offers redelivery unless delivered', async () => {
    const deliveredAt = '2024-05-02T13:45:12.000Z';
    const deliveries = [
      paymentDelivery({ event_type: 'payment.confirmed', status: 'delivered', delivered_at: deliveredAt, last_status_code: 200 }),
      paymentDelivery({
        event_type: 'payment.refunded',
        status: 'failed',
        attempt_count: 2,
        last_status_code: 500,
        last_error: 'boom',
        attempts: [attempt({ status_code: 500, error: 'boom' }), attempt({ attempt: 2, status_code: 500, error: 'boom' })],
      }),
    ];
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', status: 'paid', deliveries }));
    render(<PaymentDetail id="pay_1" />);
    const [delivered, failed] = await screen.findAllByTestId('delivery');
    expect(delivered!.textContent).toContain(`payment.confirmed deliveredDelivered ${formatDateSeconds(deliveredAt)} · last result: HTTP 200`);
    expect(within(delivered!).queryByRole('button', { name: 'Redeliver' })).toBeNull();
    expect(failed!.textContent).toContain('payment.refunded failedGave up after 2 attempts · last result: HTTP 500: boom');
    expect(within(within(failed!).getByRole('table', { name: 'Attempts' })).getAllByRole('row')).toHaveLength(3);
    expect(within(failed!).getByRole('button', { name: 'Redeliver' })).toBeTruthy();
  });

  it('redelivers, says so and reads the payment again', async () => {
    const failed = paymentDelivery({ id: 'dlv_7', status: 'failed', attempt_count: 8, last_status_code: 503 });
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', status: 'paid', deliveries: [failed] }));
    api.on('POST /webhook-deliveries/{id}/redeliver', listedDelivery({ id: 'dlv_7', status: 'pending' }));
    render(<PaymentDetail id="pay_1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Redeliver' }));
    expect((await screen.findByRole('status')).textContent).toContain('A new attempt is queued; it will be made within seconds.');
    await waitFor(() => expect(api.requests('GET /payments/{id}')).toHaveLength(2));
    expect(api.requests('POST /webhook-deliveries/{id}/redeliver')[0]!.params.id).toBe('dlv_7');
  });

  it('marks a payment charged through a test PSP "test" beside its status, and a live one not at all', async () => {
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', environment: 'production', status: 'paid' }));
    const { unmount } = render(<PaymentDetail id="pay_1" />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('R$\u00a010,50 paid');
    unmount();
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', environment: 'sandbox', status: 'paid' }));
    render(<PaymentDetail id="pay_1" />);
    const badge = within(await screen.findByRole('heading', { level: 1 })).getByText('test');
    expect(badge.className).toBe('badge badge-test');
  });

  it('makes the test PSP pay a pending payment, and shows the payment after it', async () => {
    const pending = paymentDetail({ id: 'pay_1', merchantId: 'mer_ana', provider: 'sandbox', can_simulate: true, status: 'pending' });
    api.on('GET /payments/{id}', pending);
    api.on('POST /payments/{id}/simulate', { simulation: { eventId: 'evt_sbx_1', delivered: true, status: 200, charge: {} }, payment: { ...pending, status: 'paid' } });
    render(<PaymentDetail id="pay_1" />);
    const panel = (await screen.findByRole('heading', { name: 'Test PSP' })).closest('section')!;
    expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Simulate payment', 'Simulate expiry', 'Simulate failure', 'Simulate cancel']);
    await userEvent.click(within(panel).getByRole('button', { name: 'Simulate payment' }));
    expect((await screen.findByRole('status')).textContent).toContain('Simulate payment: the test PSP sent payment.confirmed to the gateway; the payment is now paid.');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('R$\u00a010,50 paid test');
    // Paid, what is left to simulate is a refund at the PSP.
    expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Simulate refund at the PSP']);
    expect(api.requests('POST /payments/{id}/simulate').map((r) => r.body)).toEqual([{ event: 'payment.confirmed' }]);
  });

  it.each([
    ['Simulate expiry', 'payment.expired', 'expired'],
    ['Simulate failure', 'payment.failed', 'failed'],
  ] as const)('%s sends %s, and the page shows the payment %s', async (label, event, status) => {
    const pending = paymentDetail({ merchantId: 'mer_ana', provider: 'sandbox', can_simulate: true, status: 'pending' });
    api.on('GET /payments/{id}', pending);
    api.on('POST /payments/{id}/simulate', { simulation: { eventId: 'evt_sbx_1', delivered: true, status: 200, charge: {} }, payment: { ...pending, status } });
    render(<PaymentDetail id="pay_1" />);
    await userEvent.click(await screen.findByRole('button', { name: label }));
    expect((await screen.findByRole('status')).textContent).toContain(`the payment is now ${status}`);
    expect(api.requests('POST /payments/{id}/simulate').map((r) => r.body)).toEqual([{ event }]);
    expect(
      screen.getByText(`This payment is ${status}: nothing is left to simulate (a pending payment can be paid, expire, fail or be cancelled; a paid one refunded).`),
    ).toBeTruthy();
  });

  it('simulates a refund at the PSP of a paid payment', async () => {
    const paid = paymentDetail({ merchantId: 'mer_ana', provider: 'sandbox', can_simulate: true, status: 'paid' });
    api.on('GET /payments/{id}', paid);
    api.on('POST /payments/{id}/simulate', {
      simulation: { eventId: 'evt_sbx_2', delivered: true, status: 200, charge: {} },
      payment: { ...paid, status: 'refunded', refundedAmount: 10.5 },
    });
    render(<PaymentDetail id="pay_1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Simulate refund at the PSP' }));
    expect((await screen.findByRole('status')).textContent).toContain('the payment is now refunded');
    expect(api.requests('POST /payments/{id}/simulate').map((r) => r.body)).toEqual([{ event: 'payment.refunded' }]);
  });

  it("says when the gateway did not take the test PSP's event, and when the simulation was refused", async () => {
    const pending = paymentDetail({ merchantId: 'mer_ana', provider: 'sandbox', can_simulate: true, status: 'pending' });
    api.on('GET /payments/{id}', pending);
    api.on('POST /payments/{id}/simulate', { simulation: { eventId: 'evt_sbx_1', delivered: false, status: 401, charge: {} }, payment: pending });
    render(<PaymentDetail id="pay_1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Simulate expiry' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Simulate expiry: the test PSP sent payment.expired, but the gateway answered 401.');
    api.on('POST /payments/{id}/simulate', new Failure(409, { code: 'CONFLICT', message: 'The provider "efi" cannot simulate events: only test providers can.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Simulate cancel' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('only test providers can'));
  });

  it('offers no simulation for a payment of another provider', async () => {
    api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', provider: 'efi', can_simulate: false, status: 'pending' }));
    render(<PaymentDetail id="pay_1" />);
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('button', { name: /Simulate/ })).toBeNull();
  });

  it('says when the payment cannot be read, with a way back', async () => {
    api.on('GET /payments/{id}', new Failure(404, { code: 'NOT_FOUND', message: 'No payment pay_x.' }));
    render(<PaymentDetail id="pay_x" />);
    expect((await screen.findByRole('alert')).textContent).toBe('No payment pay_x.');
    expect(screen.getByRole('link', { name: 'Back to payments' }).getAttribute('href')).toBe('/admin/payments');
  });

  describe('provider attempts', () => {
    const efi = providerAccount({ id: 'pa_efi', name: 'Efí', provider: 'banco-a' });
    const bb = providerAccount({ id: 'pa_bb', name: 'BB', provider: 'banco-b', environment: 'production' });
    const mp = providerAccount({ id: 'pa_mp', name: 'Mercado Pago', provider: 'mercadopago', environment: 'production' });
    const settled = '2024-05-02T13:47:00.000Z';
    const routed = (attempts: ReturnType<typeof paymentAttempt>[]) => {
      api.on('GET /provider-accounts', [efi, bb, mp]);
      api.on('GET /providers', providerCatalogue());
      api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', provider: 'mercadopago', attempts }));
    };
    const section = async () => within((await screen.findByRole('heading', { name: 'Provider attempts' })).closest('section')!);

    it('lists each account tried, in order: why it was left, its upstream status, duration and error, and what became of its orphan', async () => {
      routed([
        paymentAttempt({
          attempt: 1,
          account_id: 'pa_efi',
          provider: 'banco-a',
          txid: 'txidEfi0001',
          outcome: 'ambiguous',
          upstream_status: 503,
          error: 'the PSP answered 503',
          duration_ms: 1840,
          orphan: { status: 'cancelled', tries: 2, last_error: null, updated_at: settled },
        }),
        paymentAttempt({
          attempt: 2,
          account_id: 'pa_bb',
          provider: 'banco-b',
          environment: 'production',
          txid: null,
          outcome: 'circuit_open',
          upstream_status: null,
          duration_ms: 0,
        }),
        paymentAttempt({
          attempt: 3,
          account_id: 'pa_mp',
          provider: 'mercadopago',
          environment: 'production',
          txid: null,
          provider_payment_id: '1319876543',
          outcome: 'charged',
          upstream_status: 201,
          duration_ms: 412,
        }),
      ]);
      render(<PaymentDetail id="pay_1" />);
      await section();
      // The accounts' names and the providers' labels arrive after the payment.
      await screen.findByRole('link', { name: 'Mercado Pago' });
      await waitFor(() => expect(tableRows('Provider attempts')[0]![2]).toBe('Banco A'));
      expect(tableRows('Provider attempts')).toEqual([
        ['1', 'EfítxidEfi0001', 'Banco A', 'sandbox', `no clear answer, moved onorphan cancelled 2 tries · ${formatDate(settled)}`, '503', '1.8 s', 'the PSP answered 503'],
        ['2', 'BB', 'Banco B', 'production', 'skipped: circuit open', '—', '0 ms', '—'],
        ['3', 'Mercado Pago1319876543', 'Mercado Pago', 'production', 'charged', '201', '412 ms', '—'],
      ]);
      expect(screen.getByRole('link', { name: 'Efí' }).getAttribute('href')).toBe('/admin/provider-accounts/pa_efi');
      expect(screen.queryByText(/Action needed/)).toBeNull();
    });

    it("calls for the operator when the payer paid an abandoned charge, and tells every orphan's state", async () => {
      const orphan = (status: 'pending' | 'absent' | 'paid' | 'failed', tries: number, last_error: string | null = null) => ({ status, tries, last_error, updated_at: settled });
      routed([
        paymentAttempt({ attempt: 1, account_id: 'pa_efi', outcome: 'ambiguous', upstream_status: null, error: 'timeout after 10 s', orphan: orphan('paid', 1) }),
        paymentAttempt({ attempt: 2, account_id: 'pa_bb', outcome: 'ambiguous', upstream_status: 502, orphan: orphan('failed', 8, 'the PSP answered 500 to the cancellation') }),
        paymentAttempt({ attempt: 3, account_id: 'pa_efi', outcome: 'ambiguous', upstream_status: 504, orphan: orphan('absent', 1) }),
        paymentAttempt({ attempt: 4, account_id: 'pa_bb', outcome: 'ambiguous', upstream_status: 500, orphan: orphan('pending', 0) }),
        paymentAttempt({ attempt: 5, account_id: 'pa_mp', outcome: 'refused', upstream_status: 401, error: 'the PSP refused the credentials (401)' }),
        paymentAttempt({ attempt: 6, account_id: 'pa_mp', outcome: 'rejected', upstream_status: 400, error: 'payer.email is invalid' }),
      ]);
      render(<PaymentDetail id="pay_1" />);
      const card = await section();
      await card.findAllByRole('link', { name: 'Mercado Pago' });
      expect(card.getByRole('status').textContent).toBe('Action needed: the payer paid a charge that was abandoned (attempt 1 (Efí)); refund it at the PSP.');
      const outcomes = tableRows('Provider attempts').map((cells) => cells[4]);
      const when = formatDate(settled);
      expect(outcomes).toEqual([
        `no clear answer, moved onorphan PAID: refund it 1 try · ${when}`,
        `no clear answer, moved onorphan: cancelling failed 8 tries · ${when}the PSP answered 500 to the cancellation`,
        `no clear answer, moved onno orphan at the PSP 1 try · ${when}`,
        `no clear answer, moved onorphan: being cancelled 0 tries · ${when}`,
        'refused, moved on',
        'rejected the payment',
      ]);
      // The paid orphan's row stands out, and not by colour alone: its badge says what to do.
      const rows = within(card.getByRole('table', { name: 'Provider attempts' })).getAllByRole('row');
      expect(rows.map((row) => row.className)).toEqual(['', 'row-alert', '', '', '', '', '']);
      expect(card.getByText('orphan PAID: refund it').className).toBe('badge badge-red');
    });

    it('keeps the page current while an orphan is being cancelled', async () => {
      jest.useFakeTimers({ advanceTimers: true });
      try {
        routed([paymentAttempt({ account_id: 'pa_efi', outcome: 'ambiguous', orphan: { status: 'pending', tries: 0, last_error: null, updated_at: settled } })]);
        render(<PaymentDetail id="pay_1" />);
        await section();
        expect(api.requests('GET /payments/{id}')).toHaveLength(1);
        await act(async () => {
          await jest.advanceTimersByTimeAsync(5000);
        });
        expect(api.requests('GET /payments/{id}')).toHaveLength(2);
      } finally {
        jest.useRealTimers();
      }
    });

    it("names a provider's built-in account without reading the accounts", async () => {
      api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', attempts: [paymentAttempt({ account_id: null, provider: 'sandbox', txid: 'sbxTxid1' })] }));
      render(<PaymentDetail id="pay_1" />);
      await section();
      expect(tableRows('Provider attempts')).toEqual([['1', 'built-in', 'sandbox', 'sandbox', 'charged', '201', '412 ms', '—']]);
    });

    it('shows no attempts for a payment without any (made before routing, or by an older gateway), and reads no accounts for it', async () => {
      api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana', attempts: [] }));
      const { unmount } = render(<PaymentDetail id="pay_1" />);
      await screen.findByRole('heading', { name: 'Event timeline' });
      expect(screen.queryByRole('heading', { name: 'Provider attempts' })).toBeNull();
      unmount();
      api.on('GET /payments/{id}', paymentDetail({ merchantId: 'mer_ana' }));
      render(<PaymentDetail id="pay_1" />);
      await screen.findByRole('heading', { name: 'Event timeline' });
      expect(screen.queryByRole('heading', { name: 'Provider attempts' })).toBeNull();
    });
  });
});

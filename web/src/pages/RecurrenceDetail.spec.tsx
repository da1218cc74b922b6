import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows } from '../../test/dom';
import { attempt, merchant, paymentDelivery, pendingRecurrence, recurrenceDetail, recurrenceEvent, recurringCharge } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { formatDate } from '../format';
import type { RecurrenceDetail as Detail } from '../types';
import { RecurrenceDetail } from './RecurrenceDetail';
import { formatCalendarDay } from './recurrence-format';

describe('RecurrenceDetail', () => {
  const api = useFakeApi();
  const ana = merchant({ id: 'mer_ana', name: 'Loja da Ana' });
  beforeEach(() => api.on('GET /merchants/{id}', ana));

  it('heads the page with what the payer authorizes, the status, the subscription and the merchant, then the terms', async () => {
    api.on('GET /recurrences/{id}', recurrenceDetail({ id: 'rec_1', merchant_id: 'mer_ana', externalId: 'gym-1', status: 'active', endDate: '2025-05-10' }));
    render(<RecurrenceDetail id="rec_1" />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('R$\u00a089,90 / month active test');
    expect((await screen.findByRole('link', { name: 'Loja da Ana' })).getAttribute('href')).toBe('/admin/merchants/mer_ana');
    const field = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(field('Payer')).toBe('Ana Souza · 123.456.789-09');
    expect(field('Contract')).toBe('plan-gold · Gym membership');
    expect(field('Amount')).toBe('R$\u00a089,90, fixed');
    expect(field('Period')).toBe(`${formatCalendarDay('2024-05-10')} – ${formatCalendarDay('2025-05-10')}`);
    expect(field('Retries')).toBe('Up to 3 retries within 7 days');
    expect(field('Journey')).toBe('QR code');
    expect(screen.getByText(/The payer's answer is in: the recurrence is active/)).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('shows the authorization QR code and its BR Code while the payer has not answered', async () => {
    const pending = pendingRecurrence({ id: 'rec_1', merchant_id: 'mer_ana' });
    api.on('GET /recurrences/{id}', pending);
    render(<RecurrenceDetail id="rec_1" />);
    expect((await screen.findByRole('img', { name: 'QR code the payer scans to authorize the recurrence' })).getAttribute('src')).toBe(pending.authorization!.qrCodePng);
    expect(screen.getByRole('textbox', { name: 'BR Code (Pix copia e cola)' })).toHaveProperty('value', pending.authorization!.copyPaste);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('R$\u00a089,90 / month waiting for the payer test');
    expect(screen.getByRole('textbox', { name: 'Authorization page' })).toHaveProperty('value', pending.authorization!.checkoutUrl);
    const open = screen.getByRole('link', { name: 'Open the authorization page in a new tab' });
    expect([open.getAttribute('href'), open.getAttribute('target'), open.getAttribute('rel')]).toEqual([pending.authorization!.checkoutUrl, '_blank', 'noopener noreferrer']);
  });

  it('lists the charges with each settlement attempt, and the history with what the merchant was told', async () => {
    const failedOnce = recurringCharge({
      id: 'rch_1',
      dueDate: '2024-05-10',
      status: 'retrying',
      attempts: [
        { date: '2024-05-10', status: 'failed', reason: 'AM04: insufficient funds' },
        { date: '2024-05-11', status: 'scheduled', reason: null },
      ],
    });
    const paid = recurringCharge({
      id: 'rch_2',
      dueDate: '2024-06-10',
      description: 'June',
      status: 'paid',
      attempts: [{ date: '2024-06-10', status: 'paid', reason: null }],
      endToEndId: 'E123',
    });
    const events = [
      recurrenceEvent({ type: 'recurrence.authorized', source: 'webhook' }),
      recurrenceEvent({
        type: 'recurring_charge.retrying',
        recurring_charge_id: 'rch_1',
        from_status: 'scheduled',
        to_status: 'retrying',
        forward: 'no_webhook_url',
        source: 'reconciliation',
      }),
    ];
    api.on('GET /recurrences/{id}', recurrenceDetail({ merchant_id: 'mer_ana', charges: [failedOnce, paid], events }));
    render(<RecurrenceDetail id="rec_1" />);
    await screen.findByRole('table', { name: 'Charges' });
    const day = formatCalendarDay;
    expect(tableRows('Charges')).toEqual([
      [day('2024-05-10'), 'Mayrch_1', 'R$\u00a089,90', 'retrying', `${day('2024-05-10')} failed AM04: insufficient funds${day('2024-05-11')} scheduled`],
      [day('2024-06-10'), 'Junerch_2E123', 'R$\u00a089,90', 'paid', `${day('2024-06-10')} paid`],
    ]);
    const history = within(screen.getByRole('list', { name: 'History' })).getAllByRole('listitem');
    const when = formatDate(recurrenceEvent().created_at);
    expect(history.map((item) => item.textContent)).toEqual([
      `recurrence.authorizedpending authorization → active · forwarded to the merchant · via webhook${when}`,
      `recurring_charge.retrying rch_1scheduled → retrying · not forwarded: no webhook URL · via reconciliation${when}`,
    ]);
  });

  it("shows the deliveries of its events with each attempt's answer", async () => {
    const delivery = paymentDelivery({ event_type: 'recurrence.authorized', status: 'delivered', attempts: [attempt({ status_code: 200 })] });
    api.on('GET /recurrences/{id}', recurrenceDetail({ merchant_id: 'mer_ana', deliveries: [delivery] }));
    render(<RecurrenceDetail id="rec_1" />);
    const card = await screen.findByTestId('delivery');
    expect(within(card).getByText('recurrence.authorized')).toBeTruthy();
    expect(within(card).getByRole('table', { name: 'Attempts' })).toBeTruthy();
  });

  it('cancels after asking, and shows the recurrence as the gateway then holds it', async () => {
    const active = recurrenceDetail({ id: 'rec_1', merchant_id: 'mer_ana', can_cancel: true });
    api.on('GET /recurrences/{id}', active);
    api.on('POST /recurrences/{id}/cancel', { ...active, status: 'cancelled', cancelledBy: 'merchant', can_cancel: false });
    render(<RecurrenceDetail id="rec_1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel recurrence' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this recurrence?' });
    expect(dialog.textContent).toMatch(/R\$\u00a089,90 \/ month from Ana Souza is cancelled at sandbox/);
    expect(api.requests('POST /recurrences/{id}/cancel')).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel recurrence' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/cancelled at the PSP/);
    expect(api.requests('POST /recurrences/{id}/cancel')[0]!.params.id).toBe('rec_1');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('R$\u00a089,90 / month cancelled test');
    expect(screen.getByText('Cancelled by').nextElementSibling!.textContent).toBe('the merchant');
    expect(screen.queryByRole('button', { name: 'Cancel recurrence' })).toBeNull();
  });

  it('keeps it when the operator changes their mind, and says why a refused cancel was refused, reading the page again', async () => {
    api.on('GET /recurrences/{id}', recurrenceDetail({ merchant_id: 'mer_ana' }));
    api.on('POST /recurrences/{id}/cancel', new Failure(409, { code: 'PAYMENT_STATE_CONFLICT', message: 'A recurrence that is ended cannot be cancelled.' }));
    render(<RecurrenceDetail id="rec_1" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel recurrence' }));
    await userEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel recurrence' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel recurrence' }));
    expect((await screen.findByRole('alert')).querySelector('.notice-body')!.textContent).toBe('A recurrence that is ended cannot be cancelled.');
    await waitFor(() => expect(api.requests('GET /recurrences/{id}')).toHaveLength(2));
  });

  it('offers no cancel and no simulation when the API says it cannot', async () => {
    api.on('GET /recurrences/{id}', recurrenceDetail({ merchant_id: 'mer_ana', can_cancel: false, can_simulate: false, charges: [recurringCharge()] }));
    render(<RecurrenceDetail id="rec_1" />);
    await screen.findByRole('table', { name: 'Charges' });
    expect(screen.queryByRole('button', { name: 'Cancel recurrence' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Test PSP' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Settle/ })).toBeNull();
  });

  describe('with a test PSP', () => {
    it("offers the payer's answers while it waits for one, and shows what the PSP's callback made of it", async () => {
      const pending = pendingRecurrence({ id: 'rec_1', merchant_id: 'mer_ana', can_simulate: true });
      api.on('GET /recurrences/{id}', pending);
      api.on('POST /recurrences/{id}/simulate', {
        simulation: { eventId: 'sbx_1', delivered: true, status: 200, subject: { status: 'APROVADA' } },
        recurrence: { ...pending, status: 'active', authorization: null },
      });
      render(<RecurrenceDetail id="rec_1" />);
      const panel = (await screen.findByRole('heading', { name: 'Test PSP' })).closest('section')!;
      expect(
        within(panel)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['Payer authorizes', 'Payer rejects', 'Authorization expires']);
      await userEvent.click(within(panel).getByRole('button', { name: 'Payer authorizes' }));
      expect((await screen.findByRole('status')).querySelector('.notice-body')!.textContent).toBe(
        'Payer authorizes: the test PSP sent its callback to the gateway; the recurrence is now active.',
      );
      expect(api.requests('POST /recurrences/{id}/simulate').map((r) => [r.params.id, r.body])).toEqual([['rec_1', { action: 'authorize' }]]);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('R$\u00a089,90 / month active test');
      expect(
        within(panel)
          .getAllByRole('button')
          .map((b) => b.textContent),
      ).toEqual(['Payer cancels at their bank']);
    });

    it('settles or fails each charge still under way, and says when the gateway did not take the callback', async () => {
      const scheduled = recurringCharge({ id: 'rch_1', status: 'scheduled' });
      const done = recurringCharge({ id: 'rch_2', status: 'paid', attempts: [{ date: '2024-05-10', status: 'paid', reason: null }] });
      const detail: Detail = recurrenceDetail({ id: 'rec_1', merchant_id: 'mer_ana', can_simulate: true, charges: [scheduled, done] });
      api.on('GET /recurrences/{id}', detail);
      api.on('POST /recurring-charges/{id}/simulate', ({ body }) => ({
        simulation: { eventId: 'sbx_2', delivered: body.action === 'settle', status: body.action === 'settle' ? 200 : 500, subject: {} },
        recurrence: { ...detail, charges: [{ ...scheduled, status: body.action === 'settle' ? ('paid' as const) : ('scheduled' as const) }, done] },
      }));
      render(<RecurrenceDetail id="rec_1" />);
      await screen.findByRole('table', { name: 'Charges' });
      expect(screen.queryByRole('button', { name: 'Settle rch_2' })).toBeNull();
      await userEvent.click(screen.getByRole('button', { name: 'Fail rch_1' }));
      expect((await screen.findByRole('alert')).querySelector('.notice-body')!.textContent).toBe('Fail May: the test PSP sent its callback, but the gateway answered 500.');
      await userEvent.click(screen.getByRole('button', { name: 'Settle rch_1' }));
      await waitFor(() =>
        expect(screen.getByRole('status').querySelector('.notice-body')!.textContent).toBe('Settle May: the test PSP sent its callback to the gateway; the charge is now paid.'),
      );
      expect(api.requests('POST /recurring-charges/{id}/simulate').map((r) => [r.params.id, r.body])).toEqual([
        ['rch_1', { action: 'fail' }],
        ['rch_1', { action: 'settle' }],
      ]);
      expect(screen.queryByRole('button', { name: 'Settle rch_1' })).toBeNull();
    });

    it("says why the PSP refused, in the API's words", async () => {
      api.on('GET /recurrences/{id}', recurrenceDetail({ id: 'rec_1', merchant_id: 'mer_ana', can_simulate: true }));
      api.on(
        'POST /recurrences/{id}/simulate',
        new Failure(409, { code: 'CONFLICT', message: 'The provider "efi" cannot simulate the payer\'s side of a recurrence: only test providers can.' }),
      );
      render(<RecurrenceDetail id="rec_1" />);
      await userEvent.click(await screen.findByRole('button', { name: 'Payer cancels at their bank' }));
      expect((await screen.findByRole('alert')).textContent).toMatch(/cannot simulate/);
    });
  });

  it('says why the recurrence could not be read, with the way back to the list', async () => {
    api.on('GET /recurrences/{id}', new Failure(404, { code: 'NOT_FOUND', message: 'Recurrence not found.' }));
    render(<RecurrenceDetail id="rec_gone" />);
    expect((await screen.findByRole('alert')).textContent).toBe('Recurrence not found.');
    expect(screen.getByRole('link', { name: 'Back to recurrences' }).getAttribute('href')).toBe('/admin/recurrences');
  });
});

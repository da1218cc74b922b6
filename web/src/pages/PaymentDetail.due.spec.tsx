import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { dueCharge, merchant, paidMismatchEvent, paymentDetail, paymentEvent, providerCatalogue } from '../../test/factories';
import { useFakeApi } from '../../test/fake-api';
import type { PaymentDetail as Detail } from '../types';
import { PaymentDetail } from './PaymentDetail';
import { formatCalendarDay } from './recurrence-format';

/** A due-date charge on its page (docs/due-charges.md): its terms, what is owed today, an amount mismatch first, the test PSP's buttons. */
describe('PaymentDetail: a due-date charge', () => {
  const api = useFakeApi();
  beforeEach(() => {
    api.on('GET /merchants/{id}', merchant({ id: 'mer_ana' }));
    api.on('GET /providers', providerCatalogue());
  });
  const show = async (detail: Detail) => {
    api.on('GET /payments/{id}', detail);
    render(<PaymentDetail id={detail.id} />);
    await screen.findByRole('heading', { name: 'Details' });
  };
  /** The value beside a label of a card's field list, as the operator reads it. */
  const field = (card: string, label: string) => {
    const section = screen.getByRole('heading', { name: card }).closest('section')!;
    const term = within(section).getByText(label, { selector: 'dt' });
    return term.nextElementSibling!.textContent;
  };

  it('shows the due date, what is owed today and why, the last payable day, and every term', async () => {
    await show(dueCharge({ id: 'pay_due' }));
    expect(field('Due date', 'Due date')).toBe(formatCalendarDay('2024-05-10'));
    expect(field('Due date', 'Amount due today')).toBe(`R$\u00a0140,00R$\u00a010,00 less than the amount · 8 days before the due date (on ${formatCalendarDay('2024-05-02')})`);
    expect(field('Due date', 'Last payable day')).toBe(`${formatCalendarDay('2024-06-10')}30 days after the due date; unpaid, it then expires.`);
    expect(field('Due date', 'Fine')).toBe('2% of the amount, once (when paid after the due date)');
    expect(field('Due date', 'Interest')).toBe('1% a month, counted in calendar days (for each day late)');
    const discounts = within(screen.getByText('Discounts', { selector: 'dt' }).nextElementSibling as HTMLElement).getAllByRole('listitem');
    expect(discounts.map((line) => line.textContent)).toEqual([
      `R$\u00a010,00 off if paid by ${formatCalendarDay('2024-05-05')}`,
      `R$\u00a05,00 off if paid by ${formatCalendarDay('2024-05-10')}`,
    ]);
    expect(field('Due date', 'Abatement')).toBe('none');
    // The payer's address, beside whom the charge is addressed to.
    expect(field('Details', 'Address')).toBe('Rua das Flores, 80, Boa Vista · Recife – PE · CEP 50050-000');
  });

  it('says how late it is, when a weekend moved the due date, and the other kinds of terms in words', async () => {
    await show(
      dueCharge({
        id: 'pay_late',
        amountDue: 153.25,
        due: {
          date: '2024-05-11',
          daysAfterDue: 1,
          fine: { type: 'fixed', value: 3 },
          interest: { type: 'percent_per_year', days: 'business', value: 12.5 },
          discount: { type: 'percent_per_day_early', days: 'business', value: 0.1 },
          abatement: { type: 'percent', value: 5 },
        },
        due_dates: { effective_due_date: '2024-05-13', last_payable_date: '2024-05-14', amount_due_on: '2024-05-14' },
      }),
    );
    expect(field('Due date', 'Due date')).toBe(`${formatCalendarDay('2024-05-11')}A weekend or holiday: payable without fine until ${formatCalendarDay('2024-05-13')}.`);
    expect(field('Due date', 'Amount due today')).toContain('R$\u00a03,25 more than the amount · 1 day late');
    expect(field('Due date', 'Last payable day')).toContain('1 day after the due date');
    expect(field('Due date', 'Fine')).toBe('R$\u00a03,00, once (when paid after the due date)');
    expect(field('Due date', 'Interest')).toBe('12,5% a year, counted in business days (for each day late)');
    expect(field('Due date', 'Discount')).toBe('0,1% off for each business day paid before the due date');
    expect(field('Due date', 'Abatement')).toBe('5% off the amount, whenever paid');
  });

  it('leaves out what is owed today once the charge is no longer open, and shows no card for an immediate charge', async () => {
    await show(dueCharge({ id: 'pay_paid', status: 'paid', paidAmount: 140, paidAt: '2024-05-02T13:45:10.000Z' }));
    expect(screen.getByRole('heading', { name: 'Due date' })).toBeTruthy();
    expect(screen.queryByText('Amount due today')).toBeNull();
    document.body.innerHTML = '';

    await show(paymentDetail({ id: 'pay_now' }));
    expect(screen.queryByRole('heading', { name: 'Due date' })).toBeNull();
    expect(screen.queryByText('Address')).toBeNull();
  });

  describe('paid with another amount than was due', () => {
    const paidLate = (paid: number, overrides: Partial<Detail> = {}) =>
      dueCharge({
        id: 'pay_mismatch',
        merchantId: 'mer_ana',
        status: 'paid',
        paidAmount: paid,
        paidAt: '2024-05-15T15:00:00.000Z',
        can_refund: true,
        events: [paymentEvent({ amount: paid }), paidMismatchEvent(paid, 153.25)],
        ...overrides,
      });
    const notice = async () => (await screen.findByText(/than was due\.$/)).closest<HTMLElement>('.notice')!;

    it('says so first on the page, and offers to refund what was paid over', async () => {
      await show(paidLate(160));
      const box = await notice();
      expect(box.className).toBe('notice notice-warning');
      expect(box.querySelector('strong')!.textContent).toBe('Paid R$\u00a06,75 more than was due.');
      expect(box.textContent).toContain('The payer paid R$\u00a0160,00 on ');
      expect(box.textContent).toContain(', when R$\u00a0153,25 was due. The payment counts as paid: the money has moved. Refund the difference unless the payer owes it.');
      expect(box.compareDocumentPosition(screen.getByRole('heading', { name: 'Details' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      await userEvent.click(within(box).getByRole('button', { name: 'Refund R$\u00a06,75' }));
      const dialog = screen.getByRole('dialog', { name: 'Refund this payment' });
      expect(within(dialog).getByRole('radio', { name: 'Part of it' })).toHaveProperty('checked', true);
      expect(within(dialog).getByLabelText<HTMLInputElement>('Amount (R$)').value).toBe('6,75');
    });

    it('asks the operator to collect the rest when less was paid, with nothing to refund', async () => {
      await show(paidLate(150));
      const box = await notice();
      expect(box.querySelector('strong')!.textContent).toBe('Paid R$\u00a03,25 less than was due.');
      expect(box.textContent).toContain('Collect the rest from the payer another way, if it is owed.');
      expect(within(box).queryByRole('button')).toBeNull();
    });

    it('labels the history entry as paid, not as "not applied", with what was due', async () => {
      await show(paidLate(150));
      const timeline = within(screen.getByRole('heading', { name: 'Event timeline' }).closest('section')!);
      expect(timeline.getByText('paid: amount differs from what was due').className).toBe('badge badge-amber');
      expect(timeline.queryByText('not applied: amount differs')).toBeNull();
      expect(timeline.getByText(/reported R\$\s150,00 · R\$\s153,25 was due/)).toBeTruthy();
    });

    it('keeps "not applied: amount differs" for an immediate charge, and no notice', async () => {
      await show(
        paymentDetail({
          id: 'pay_now',
          events: [
            paymentEvent({
              outcome: 'amount_mismatch',
              from_status: 'pending',
              to_status: 'paid',
              amount: 9.99,
              note: 'Event amount 9.99 does not match the payment amount 10.50.',
            }),
          ],
        }),
      );
      expect(screen.getByText('not applied: amount differs')).toBeTruthy();
      expect(screen.queryByText(/than was due/)).toBeNull();
    });
  });

  describe("the test PSP's buttons", () => {
    const pending = dueCharge({ id: 'pay_sim', merchantId: 'mer_ana' });
    const panel = async () => within((await screen.findByRole('heading', { name: 'Test PSP' })).closest('section')!);
    beforeEach(() => {
      api.on('POST /payments/{id}/simulate', (request) => ({
        simulation: { eventId: 'evt_sbx_1', delivered: true, status: 200, charge: {} },
        payment: { ...pending, status: request.body.event === 'payment.expired' ? ('expired' as const) : ('paid' as const) },
      }));
    });

    it('pays on time with the amount due today', async () => {
      await show(pending);
      const buttons = await panel();
      expect(buttons.getAllByRole('button').map((b) => b.textContent)).toEqual(['Pay on time', 'Pay late…', 'Expire']);
      await userEvent.click(buttons.getByRole('button', { name: 'Pay on time' }));
      await screen.findByText(/^Pay on time: the test PSP sent payment\.confirmed of R\$\s140,00 to the gateway; the payment is now paid\.$/);
      expect(api.requests('POST /payments/{id}/simulate').map((r) => r.body)).toEqual([{ event: 'payment.confirmed', amount: 140 }]);
    });

    it('pays late with the amount the operator chose, refusing one that is not an amount', async () => {
      await show(pending);
      const buttons = await panel();
      await userEvent.click(buttons.getByRole('button', { name: 'Pay late…' }));
      const input = buttons.getByLabelText<HTMLInputElement>('Amount paid (R$)');
      expect(input.value).toBe('140,00');
      await userEvent.clear(input);
      await userEvent.type(input, '12,345');
      await userEvent.click(buttons.getByRole('button', { name: 'Pay' }));
      expect(buttons.getByText('Enter an amount in reais, such as 10,50, with at most two decimals.')).toBeTruthy();
      expect(api.requests('POST /payments/{id}/simulate')).toEqual([]);
      await userEvent.clear(input);
      await userEvent.type(input, '155,10');
      await userEvent.click(buttons.getByRole('button', { name: 'Pay R$\u00a0155,10' }));
      await waitFor(() => expect(api.requests('POST /payments/{id}/simulate').map((r) => r.body)).toEqual([{ event: 'payment.confirmed', amount: 155.1 }]));
    });

    it('expires it, and names the button for an overdue charge by what it pays', async () => {
      await show({ ...pending, amountDue: 153.25, due_dates: { effective_due_date: '2024-05-10', last_payable_date: '2024-06-10', amount_due_on: '2024-05-15' } });
      const buttons = await panel();
      expect(buttons.getAllByRole('button').map((b) => b.textContent)).toEqual(['Pay what is due today', 'Pay late…', 'Expire']);
      await userEvent.click(buttons.getByRole('button', { name: 'Expire' }));
      await waitFor(() => expect(api.requests('POST /payments/{id}/simulate').map((r) => r.body)).toEqual([{ event: 'payment.expired' }]));
    });
  });
});

import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { visit } from '../../test/dom';
import { merchant, page, payment } from '../../test/factories';
import { useFakeApi, validationFailure } from '../../test/fake-api';
import { Payments } from './Payments';
import { addDays, brasiliaToday, checkDue, dueBody, emptyDue } from './test-payment-due';

const ana = merchant({ id: 'mer_ana', name: 'Loja da Ana' });

/** The test payment form's due-date option (docs/due-charges.md): a due-date charge through the test PSP. */
describe('a due-date test payment', () => {
  const api = useFakeApi();
  beforeEach(() => {
    visit('/admin/payments');
    api.on('GET /merchants', page([ana]));
    api.on('GET /payments', page([]));
  });

  const open = async () => {
    render(<Payments />);
    await userEvent.click(await screen.findByRole('button', { name: 'New test payment' }));
    const dialog = within(screen.getByRole('dialog', { name: 'New test payment' }));
    await userEvent.type(dialog.getByLabelText('Amount (R$)'), '150');
    await userEvent.click(dialog.getByRole('checkbox', { name: /^Due-date charge/ }));
    return dialog;
  };
  const setDate = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

  it('sends the due date, the days after it, a fine, interest a month and a discount until a date', async () => {
    api.on('POST /test-payments', payment({ id: 'pay_due_1', merchantId: 'mer_ana', amount: 150 }));
    const dialog = await open();
    // A week from today in Brasília, payable 30 days after it, until the operator says otherwise.
    expect(dialog.getByLabelText<HTMLInputElement>('Due date').value).toBe(addDays(brasiliaToday(), 7));
    expect(dialog.getByLabelText<HTMLInputElement>('Days after due').value).toBe('30');
    setDate(dialog.getByLabelText('Due date'), '2099-03-10');
    await userEvent.clear(dialog.getByLabelText('Days after due'));
    await userEvent.type(dialog.getByLabelText('Days after due'), '15');
    await userEvent.type(dialog.getByLabelText('Fine (%)'), '2');
    await userEvent.type(dialog.getByLabelText('Interest (% a month)'), '1,5');
    await userEvent.selectOptions(dialog.getByLabelText('Interest counts'), 'business');
    await userEvent.type(dialog.getByLabelText('Discount (R$)'), '10,00');
    // The discount's day starts as the due date.
    expect(dialog.getByLabelText<HTMLInputElement>('Discount if paid by').value).toBe('2099-03-10');
    setDate(dialog.getByLabelText('Discount if paid by'), '2099-03-05');
    await userEvent.click(dialog.getByRole('button', { name: /^Create test payment/ }));
    await waitFor(() => expect(location.pathname).toBe('/admin/payments/pay_due_1'));
    expect(api.requests('POST /test-payments').map((r) => r.body)).toEqual([
      {
        merchantId: 'mer_ana',
        amount: 150,
        due: {
          date: '2099-03-10',
          daysAfterDue: 15,
          fine: { type: 'percent', value: 2 },
          interest: { type: 'percent_per_month', days: 'business', value: 1.5 },
          discount: { type: 'fixed_until', until: [{ date: '2099-03-05', value: 10 }] },
        },
      },
    ]);
  });

  it('sends only the date and days after it when nothing else is asked for', async () => {
    api.on('POST /test-payments', payment({ id: 'pay_due_2', merchantId: 'mer_ana', amount: 150 }));
    const dialog = await open();
    setDate(dialog.getByLabelText('Due date'), '2099-03-10');
    await userEvent.click(dialog.getByRole('button', { name: /^Create test payment/ }));
    await waitFor(() => expect(api.requests('POST /test-payments')).toHaveLength(1));
    expect(api.requests('POST /test-payments')[0]!.body).toEqual({ merchantId: 'mer_ana', amount: 150, due: { date: '2099-03-10', daysAfterDue: 30 } });
  });

  it('sends nothing while a term is wrong, and says what beside each field', async () => {
    const dialog = await open();
    setDate(dialog.getByLabelText('Due date'), '2000-01-10');
    await userEvent.clear(dialog.getByLabelText('Days after due'));
    await userEvent.type(dialog.getByLabelText('Days after due'), '4000');
    await userEvent.type(dialog.getByLabelText('Fine (%)'), '120');
    await userEvent.type(dialog.getByLabelText('Interest (% a month)'), '1,234');
    await userEvent.type(dialog.getByLabelText('Discount (R$)'), '150');
    await userEvent.click(dialog.getByRole('button', { name: /^Create test payment/ }));
    expect(dialog.getByText(/^Choose today \(\d{4}-\d{2}-\d{2} in Brasília\) or a later day\.$/)).toBeTruthy();
    expect(dialog.getByText('Enter a whole number of days from 0 to 3650.')).toBeTruthy();
    expect(dialog.getByText('Enter a percent above 0 and at most 100.')).toBeTruthy();
    expect(dialog.getByText('Enter a percent such as 2 or 2,5, with at most two decimals.')).toBeTruthy();
    expect(dialog.getByText('The discount must be less than the amount.')).toBeTruthy();
    expect(dialog.getByLabelText('Fine (%)').getAttribute('aria-invalid')).toBe('true');
    expect(api.requests('POST /test-payments')).toEqual([]);
  });

  it("puts the gateway's refusal of a term beside its field", async () => {
    api.on('POST /test-payments', validationFailure([{ field: 'due.discount.until.0.date', message: 'due.discount.until.0.date must be on or before due.date.' }]));
    const dialog = await open();
    setDate(dialog.getByLabelText('Due date'), '2099-03-10');
    await userEvent.type(dialog.getByLabelText('Discount (R$)'), '5');
    await userEvent.click(dialog.getByRole('button', { name: /^Create test payment/ }));
    const field = dialog.getByLabelText('Discount if paid by');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!)!.textContent).toBe('due.discount.until.0.date must be on or before due.date.');
  });

  it('sends no due when the option is off', async () => {
    api.on('POST /test-payments', payment({ id: 'pay_now', merchantId: 'mer_ana', amount: 150 }));
    const dialog = await open();
    await userEvent.click(dialog.getByRole('checkbox', { name: /^Due-date charge/ }));
    expect(dialog.queryByLabelText('Due date')).toBeNull();
    await userEvent.click(dialog.getByRole('button', { name: /^Create test payment/ }));
    await waitFor(() => expect(api.requests('POST /test-payments').map((r) => r.body)).toEqual([{ merchantId: 'mer_ana', amount: 150 }]));
  });
});

describe('the due-date option, alone', () => {
  const today = '2026-05-10';
  it('refuses a discount date after the due date, and a discount date without a discount', () => {
    const values = { ...emptyDue(today), on: true, date: '2026-05-20', discount: '5', discountUntil: '2026-05-21' };
    expect(checkDue(values, 100, today)).toMatchObject({ discountUntil: 'Choose the due date or a day before it.' });
    expect(checkDue({ ...values, discount: '' }, 100, today)).toMatchObject({ discount: 'Enter the discount, or clear its date.' });
  });

  it('is nothing when off, whatever its fields hold', () => {
    const values = { ...emptyDue(today), date: '1999-01-01', finePercent: 'x' };
    expect(checkDue(values, 100, today)).toEqual({});
    expect(dueBody(values)).toBeUndefined();
  });

  it("takes today as Brasília's day, hours behind UTC", () => {
    expect(brasiliaToday(new Date('2026-05-11T02:30:00Z'))).toBe('2026-05-10');
    expect(addDays('2026-02-26', 7)).toBe('2026-03-05');
  });
});

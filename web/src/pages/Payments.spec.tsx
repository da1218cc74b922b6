import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows, visit } from '../../test/dom';
import { merchant, page, payment } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { formatDate } from '../format';
import { Payments } from './Payments';

const ana = merchant({ id: 'mer_ana', name: 'Loja da Ana' });
const bia = merchant({ id: 'mer_bia', name: 'Loja da Bia' });

describe('Payments', () => {
  const api = useFakeApi();
  const listed = () => api.requests('GET /payments').map((r) => r.query);
  beforeEach(() => {
    visit('/admin/payments');
    api.on('GET /merchants', page([ana, bia]));
  });

  it("lists payments with their merchant's name, amount and status", async () => {
    api.on(
      'GET /payments',
      page([
        payment({ id: 'pay_1', externalId: 'order-1', merchantId: 'mer_bia', amount: 1234.5, status: 'paid' }),
        payment({ id: 'pay_2', externalId: 'order-2', merchantId: 'mer_gone' }),
      ]),
    );
    render(<Payments />);
    await screen.findByRole('table', { name: 'Payments' });
    await waitFor(() => expect(tableRows('Payments')[0]![2]).toBe('Loja da Bia'));
    expect(tableRows('Payments')).toEqual([
      [formatDate(payment().createdAt), 'order-1pay_1', 'Loja da Bia', 'R$\u00a01.234,50', 'paid test'],
      [formatDate(payment().createdAt), 'order-2pay_2', 'mer_gone', 'R$\u00a010,50', 'pending test'],
    ]);
    expect(listed()).toEqual([{ limit: '20' }]);
  });

  it('marks the payments charged through a test PSP "test", and live ones not at all', async () => {
    const live = payment({ id: 'pay_live', externalId: 'order-live', merchantId: 'mer_ana', status: 'paid', environment: 'production' });
    api.on('GET /payments', page([live, payment({ id: 'pay_old', externalId: 'order-old', merchantId: 'mer_ana' })]));
    render(<Payments />);
    await screen.findByRole('table', { name: 'Payments' });
    expect(tableRows('Payments').map((cells) => cells[4])).toEqual(['paid', 'pending test']);
    expect(screen.getByText('test').className).toBe('badge badge-test');
    expect(screen.getByText('test').getAttribute('title')).toMatch(/no real money/);
  });

  it('asks the API for the chosen filters, the dates as whole local days, and keeps them in the URL', async () => {
    api.on('GET /payments', page([]));
    render(<Payments />);
    await userEvent.selectOptions(await screen.findByLabelText('Merchant'), await screen.findByRole('option', { name: 'Loja da Bia' }));
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'paid');
    await userEvent.type(screen.getByLabelText('External id'), ' order-9 ');
    await userEvent.type(screen.getByLabelText('Created from'), '2024-05-01');
    await userEvent.type(screen.getByLabelText('Created to'), '2024-05-03');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(listed()).toHaveLength(2));
    expect(listed()[1]).toEqual({
      merchant_id: 'mer_bia',
      status: 'paid',
      external_id: 'order-9',
      created_from: new Date(2024, 4, 1).toISOString(),
      created_to: new Date(2024, 4, 4).toISOString(),
      limit: '20',
    });
    expect(location.search).toBe('?merchant_id=mer_bia&status=paid&external_id=order-9&from=2024-05-01&to=2024-05-03');
  });

  it('filters by every status, refunded ones included, named in words', async () => {
    api.on('GET /payments', page([]));
    render(<Payments />);
    const options = within(await screen.findByLabelText('Status')).getAllByRole('option');
    expect(options.map((o) => [o.getAttribute('value'), o.textContent])).toEqual([
      ['', 'Any status'],
      ['pending', 'Pending'],
      ['paid', 'Paid'],
      ['expired', 'Expired'],
      ['cancelled', 'Cancelled'],
      ['failed', 'Failed'],
      ['partially_refunded', 'Partially refunded'],
      ['refunded', 'Refunded'],
    ]);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Partially refunded');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(listed()).toEqual([{ limit: '20' }, { status: 'partially_refunded', limit: '20' }]));
    expect(location.search).toBe('?status=partially_refunded');
  });

  it('shows what was refunded of a payment under its amount', async () => {
    api.on(
      'GET /payments',
      page([
        payment({ merchantId: 'mer_ana', amount: 10.5, refundedAmount: 3.5, status: 'partially_refunded' }),
        payment({ merchantId: 'mer_ana', amount: 10.5, refundedAmount: 10.5, status: 'refunded' }),
      ]),
    );
    render(<Payments />);
    await screen.findByRole('table', { name: 'Payments' });
    expect(tableRows('Payments').map((cells) => cells.slice(3))).toEqual([
      ['R$\u00a010,50R$\u00a03,50 refunded', 'partially refunded test'],
      ['R$\u00a010,50R$\u00a010,50 refunded', 'refunded test'],
    ]);
    expect(screen.getByText('partially refunded').className).toBe('badge badge-violet');
  });

  it('marks a payment paid after it closed, and asks for a refund while it still holds the money', async () => {
    api.on(
      'GET /payments',
      page([
        payment({ merchantId: 'mer_ana', status: 'paid', paidAfterClose: true }),
        payment({ merchantId: 'mer_ana', status: 'refunded', refundedAmount: 10.5, paidAfterClose: true }),
        payment({ merchantId: 'mer_ana', status: 'paid' }),
      ]),
    );
    render(<Payments />);
    await screen.findByRole('table', { name: 'Payments' });
    expect(tableRows('Payments').map((cells) => cells[4])).toEqual(['paid test after close: refund it', 'refunded test after close', 'paid test']);
    const marker = screen.getByText('after close: refund it');
    expect(marker.className).toBe('badge badge-action');
    expect(marker.getAttribute('title')).toMatch(/^The Pix arrived after the payment was cancelled or expired/);
    expect(screen.getByText('after close').className).toBe('badge badge-gray');
  });

  it('lists only the payments paid after close when asked, and keeps the choice in the URL', async () => {
    api.on('GET /payments', page([]));
    render(<Payments />);
    await userEvent.selectOptions(await screen.findByLabelText('Paid after close'), 'Only paid after close');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(listed()).toEqual([{ limit: '20' }, { paid_after_close: 'true', limit: '20' }]));
    expect(location.search).toBe('?paid_after_close=true');
  });

  it('refuses an external id the API would refuse, and dates in the wrong order', async () => {
    api.on('GET /payments', page([]));
    render(<Payments />);
    await userEvent.type(screen.getByLabelText('External id'), 'order #9');
    await userEvent.type(screen.getByLabelText('Created from'), '2024-05-03');
    await userEvent.type(screen.getByLabelText('Created to'), '2024-05-01');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText('An external id is 1–64 letters, digits or . _ : -')).toBeTruthy();
    expect(screen.getByText('The end date is before the start date.')).toBeTruthy();
    expect(location.search).toBe('');
    expect(listed()).toHaveLength(1);
  });

  it('starts from the filters in the URL, says when nothing matches, and clears them', async () => {
    visit('/admin/payments?status=expired');
    api.on('GET /payments', page([]));
    render(<Payments />);
    expect(await screen.findByText('No payment matches these filters.')).toBeTruthy();
    expect(screen.getByLabelText('Status')).toHaveProperty('value', 'expired');
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('No payments yet.')).toBeTruthy();
    expect(listed()).toEqual([{ status: 'expired', limit: '20' }, { limit: '20' }]);
    expect(screen.getByLabelText('Status')).toHaveProperty('value', '');
  });

  it('pages to older payments with the cursor, and back', async () => {
    api.on('GET /payments', ({ query }) => (query.cursor === 'c2' ? page([payment({ externalId: 'older' })]) : page([payment({ externalId: 'newest' })], 'c2')));
    render(<Payments />);
    expect(await screen.findByRole('link', { name: 'newest' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '← Newer' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Older →' }));
    expect(await screen.findByRole('link', { name: 'older' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Older →' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: '← Newer' }));
    expect(await screen.findByRole('link', { name: 'newest' })).toBeTruthy();
    expect(listed().map((q) => q.cursor)).toEqual([undefined, 'c2', undefined]);
  });

  it("shows the gateway's failure in words", async () => {
    api.on('GET /payments', new Failure(500, { code: 'INTERNAL_ERROR', message: 'Internal server error' }));
    render(<Payments />);
    expect((await screen.findByRole('alert')).textContent).toBe(
      "Something went wrong inside the gateway (reference 00000000-0000-4000-8000-000000000000). Please try again; if it keeps happening, check the gateway's logs.",
    );
  });
});

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows, visit } from '../../test/dom';
import { merchant, page, paymentLink } from '../../test/factories';
import { useFakeApi, validationFailure } from '../../test/fake-api';
import { formatDate } from '../format';
import { PaymentLinks } from './PaymentLinks';

const ana = merchant({ id: 'mer_ana', name: 'Loja da Ana' });
const closed = merchant({ id: 'mer_closed', name: 'Loja Fechada', active: false });

describe('the payment links list', () => {
  const api = useFakeApi();
  beforeEach(() => {
    visit('/admin/payment-links');
    api.on('GET /merchants', page([ana, closed]));
  });

  it('lists links newest first with their merchant, amount, what they sold and their state, each linked to its page', async () => {
    api.on(
      'GET /payment-links',
      page([
        paymentLink({ id: 'plink_shirt', title: 'Camiseta azul', merchant_id: 'mer_ana', paidCount: 2, paymentsCount: 3, maxPayments: 50 }),
        paymentLink({ id: 'plink_gift', title: 'Vale-presente', merchant_id: 'mer_ana', amount: null, amountRange: { min: 10, max: 500 }, state: 'inactive', active: false }),
        paymentLink({ id: 'plink_ticket', title: 'Ingresso', merchant_id: 'mer_ana', state: 'used_up', maxPayments: 1, paidCount: 1, paymentsCount: 1 }),
      ]),
    );
    render(<PaymentLinks />);
    await screen.findByRole('link', { name: 'Camiseta azul' });
    await waitFor(() => expect(tableRows('Payment links')[0]![2]).toBe('Loja da Ana'));
    expect(tableRows('Payment links').map((row) => row.slice(1))).toEqual([
      ['Camiseta azulplink_shirt', 'Loja da Ana', 'R$\u00a059,90', '2 paid · 3 opened · at most 50', 'open'],
      ['Vale-presenteplink_gift', 'Loja da Ana', 'R$\u00a010,00 – R$\u00a0500,00', '0 paid · 0 opened', 'deactivated'],
      ['Ingressoplink_ticket', 'Loja da Ana', 'R$\u00a059,90', '1 paid · 1 opened · at most 1', 'used up'],
    ]);
    expect(tableRows('Payment links')[0]![0]).toBe(formatDate('2024-05-02T13:45:10.000Z'));
    expect(screen.getByRole('link', { name: 'Vale-presente' }).getAttribute('href')).toBe('/admin/payment-links/plink_gift');
  });

  it('filters by merchant and by active through the URL', async () => {
    api.on('GET /payment-links', page([]));
    render(<PaymentLinks />);
    expect(await screen.findByText(/^No payment links yet\./)).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Merchant'), 'mer_ana');
    await userEvent.selectOptions(screen.getByLabelText('Active'), 'false');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(location.search).toBe('?merchant_id=mer_ana&active=false');
    await waitFor(() => expect(api.requests('GET /payment-links').at(-1)!.query).toEqual({ merchant_id: 'mer_ana', active: 'false', limit: '20' }));
    expect(await screen.findByText('No payment link matches these filters.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(location.search).toBe('');
  });

  it('pages older and back newer with the cursor', async () => {
    api.on('GET /payment-links', (request) =>
      request.query.cursor ? page([paymentLink({ title: 'Older link', merchant_id: 'mer_ana' })]) : page([paymentLink({ title: 'Newer link', merchant_id: 'mer_ana' })], 'c2'),
    );
    render(<PaymentLinks />);
    await screen.findByRole('link', { name: 'Newer link' });
    await userEvent.click(screen.getByRole('button', { name: 'Older →' }));
    expect(await screen.findByRole('link', { name: 'Older link' })).toBeTruthy();
    expect(location.search).toBe('?cursor=c2');
    await userEvent.click(screen.getByRole('button', { name: '← Newer' }));
    expect(await screen.findByRole('link', { name: 'Newer link' })).toBeTruthy();
  });
});

describe('making a payment link', () => {
  const api = useFakeApi();
  beforeEach(() => {
    visit('/admin/payment-links?merchant_id=mer_ana');
    api.on('GET /merchants', page([ana, closed]));
    api.on('GET /payment-links', page([]));
  });
  const open = async () => {
    render(<PaymentLinks />);
    await userEvent.click(await screen.findByRole('button', { name: 'New payment link' }));
    return within(screen.getByRole('dialog', { name: 'New payment link' }));
  };

  it('offers the active merchants, the one filtered on first, and makes a fixed-amount link, then opens its page', async () => {
    api.on('POST /merchants/{id}/payment-links', paymentLink({ id: 'plink_new', merchant_id: 'mer_ana' }));
    const form = await open();
    const merchantChoice = form.getByLabelText<HTMLSelectElement>('Merchant');
    expect(merchantChoice.value).toBe('mer_ana');
    expect([...merchantChoice.options].map((o) => o.textContent)).toEqual(['Choose a merchant', 'Loja da Ana']);
    await userEvent.type(form.getByLabelText('Title'), 'Camiseta azul');
    await userEvent.type(form.getByLabelText('Amount (R$)'), '59,90');
    await userEvent.type(form.getByLabelText('Most payments (optional)'), '50');
    await userEvent.click(form.getByLabelText(/Ask the payer's e-mail too/));
    await userEvent.click(form.getByRole('button', { name: 'Create link' }));
    await waitFor(() => expect(location.pathname).toBe('/admin/payment-links/plink_new'));
    expect(api.requests('POST /merchants/{id}/payment-links').map((r) => [r.params.id, r.body])).toEqual([
      ['mer_ana', { title: 'Camiseta azul', amount: 59.9, maxPayments: 50, collect: { email: true } }],
    ]);
  });

  it('makes a link whose payer chooses the amount within a range', async () => {
    api.on('POST /merchants/{id}/payment-links', paymentLink({ id: 'plink_gift' }));
    const form = await open();
    await userEvent.type(form.getByLabelText('Title'), 'Vale-presente');
    await userEvent.click(form.getByLabelText('The payer chooses, within a range'));
    expect(form.queryByLabelText('Amount (R$)')).toBeNull();
    await userEvent.type(form.getByLabelText('At least (R$)'), '10');
    await userEvent.type(form.getByLabelText('At most (R$)'), '500');
    await userEvent.type(form.getByLabelText('Return URL (optional)'), 'https://shop.example.com/thanks');
    await userEvent.click(form.getByRole('button', { name: 'Create link' }));
    await waitFor(() => expect(api.requests('POST /merchants/{id}/payment-links')).toHaveLength(1));
    expect(api.requests('POST /merchants/{id}/payment-links')[0]!.body).toEqual({
      title: 'Vale-presente',
      amountRange: { min: 10, max: 500 },
      returnUrl: 'https://shop.example.com/thanks',
    });
  });

  it('sends nothing while the form has a problem, and shows each beside its field', async () => {
    const form = await open();
    await userEvent.selectOptions(form.getByLabelText('Merchant'), '');
    await userEvent.click(form.getByRole('button', { name: 'Create link' }));
    expect(form.getByText('Choose the merchant whose link it is.')).toBeTruthy();
    expect(form.getByText('Give the link a title: it heads its page and names each payment.')).toBeTruthy();
    expect(form.getByText('Enter the amount.')).toBeTruthy();
    expect(form.getByLabelText('Title').getAttribute('aria-invalid')).toBe('true');
    expect(api.requests('POST /merchants/{id}/payment-links')).toHaveLength(0);
  });

  it("keeps the API's refusal on the form, beside the field it names", async () => {
    api.on('POST /merchants/{id}/payment-links', validationFailure([{ field: 'amount', message: 'amount must be at most 1000000.00' }]));
    const form = await open();
    await userEvent.type(form.getByLabelText('Title'), 'Carro');
    await userEvent.type(form.getByLabelText('Amount (R$)'), '2000000');
    await userEvent.click(form.getByRole('button', { name: 'Create link' }));
    expect(await form.findByText('amount must be at most 1000000.00', { selector: '.field-error' })).toBeTruthy();
    expect(form.getByRole('alert').textContent).toContain('Please check: amount must be at most 1000000.00.');
    expect(location.pathname).toBe('/admin/payment-links');
  });
});

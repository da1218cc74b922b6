import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows } from '../../test/dom';
import { merchant, page, payment, paymentLink } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { formatDate } from '../format';
import { PaymentLinkDetail } from './PaymentLinkDetail';

describe('a payment link page', () => {
  const api = useFakeApi();
  const shirt = paymentLink({ id: 'plink_shirt', merchant_id: 'mer_ana', title: 'Camiseta azul', paymentsCount: 3, paidCount: 2, maxPayments: 50 });
  beforeEach(() => {
    api.on('GET /merchants/{id}', merchant({ id: 'mer_ana', name: 'Loja da Ana' }));
    api.on('GET /payments', page([]));
  });
  const show = async (link = shirt) => {
    api.on('GET /payment-links/{id}', link);
    render(<PaymentLinkDetail id={link.id} />);
    await screen.findByRole('heading', { level: 1 });
  };
  const field = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling!.textContent;

  it('heads with its title, state and merchant, and gives its address to copy or open', async () => {
    await show();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Camiseta azul open');
    expect((await screen.findByRole('link', { name: 'Loja da Ana' })).getAttribute('href')).toBe('/admin/merchants/mer_ana');
    expect(screen.getByRole('textbox', { name: 'Address to send payers' })).toHaveProperty('value', shirt.url);
    const open = screen.getByRole('link', { name: "Open the payment link's page in a new tab" });
    expect([open.getAttribute('href'), open.getAttribute('target')]).toEqual([shirt.url, '_blank']);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(shirt.url);
  });

  it('tells its terms and what it sold', async () => {
    await show(
      paymentLink({
        ...shirt,
        amount: null,
        amountRange: { min: 10, max: 500 },
        description: 'Tamanhos P, M e G',
        expiresAt: '2027-06-30T23:59:59.000Z',
        collect: { email: true },
        returnUrl: 'https://shop.example.com/thanks',
      }),
    );
    expect(field('Amount')).toBe('R$\u00a010,00 – R$\u00a0500,00, the payer chooses');
    expect(field('Description')).toBe('Tamanhos P, M e G');
    expect(field('Expires')).toBe(formatDate('2027-06-30T23:59:59.000Z'));
    expect(field('Most payments')).toBe('50');
    expect(field('Asks')).toBe('name, CPF/CNPJ and e-mail');
    expect(field('Returns to')).toBe('https://shop.example.com/thanks');
    const sold = within(screen.getByLabelText('Payments of this link', { selector: '.metrics' }));
    expect(sold.getAllByText(/^\d+$/).map((n) => n.textContent)).toEqual(['3', '2', '50']);
  });

  it('lists the payments payers opened from it, each linked to its page, then more on asking', async () => {
    const first = payment({ id: 'pay_1', status: 'paid', amount: 59.9, recipient: { name: 'Bruno Lima', document: '12345678909' } });
    const second = payment({ id: 'pay_2', recipient: { name: 'Carla Dias', document: '12345678909' } });
    api.on('GET /payments', (request) => (request.query.cursor ? page([second]) : page([first], 'c2')));
    await show();
    await screen.findByRole('link', { name: 'pay_1' });
    expect(tableRows('Payments of this link')).toEqual([[formatDate(first.createdAt), 'pay_1', 'Bruno Lima', 'R$\u00a059,90', 'paid test']]);
    expect(api.requests('GET /payments')[0]!.query).toEqual({ payment_link_id: 'plink_shirt', merchant_id: 'mer_ana', limit: '20' });
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect((await screen.findByRole('link', { name: 'pay_2' })).getAttribute('href')).toBe('/admin/payments/pay_2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says when no payer has opened it yet', async () => {
    await show();
    expect(await screen.findByText('No payer has opened this link yet.')).toBeTruthy();
  });

  it('deactivates it once confirmed, and then says so', async () => {
    api.on('POST /payment-links/{id}/deactivate', paymentLink({ ...shirt, active: false, state: 'inactive' }));
    await show();
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Deactivate this payment link?' }));
    expect(dialog.getByText(/cannot be reactivated/)).toBeTruthy();
    await userEvent.click(dialog.getByRole('button', { name: 'Deactivate link' }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Camiseta azul deactivated'));
    expect(api.requests('POST /payment-links/{id}/deactivate').map((r) => r.params.id)).toEqual(['plink_shirt']);
    expect(screen.getByText('The link is deactivated.')).toBeTruthy();
    expect(screen.getByText(/^This link is deactivated/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Deactivate' })).toBeNull();
  });

  it('changes nothing when the confirmation is cancelled', async () => {
    await show();
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.requests('POST /payment-links/{id}/deactivate')).toHaveLength(0);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Camiseta azul open');
  });

  it('says why a used-up or expired link takes no payment', async () => {
    await show(paymentLink({ ...shirt, state: 'used_up', maxPayments: 3, paidCount: 3 }));
    expect(screen.getByText(/^This link is used up/)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Camiseta azul used up');
  });

  it('says an unknown link is not found, with the way back', async () => {
    api.on('GET /payment-links/{id}', new Failure(404, { code: 'NOT_FOUND', message: 'Payment link not found.' }));
    render(<PaymentLinkDetail id="plink_gone" />);
    expect(await screen.findByText('Payment link not found.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to payment links' }).getAttribute('href')).toBe('/admin/payment-links');
  });
});

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { visit } from '../../test/dom';
import { merchant, page, payment, providerAccount } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { Payments } from './Payments';
import { MerchantTestModeNotice, merchantInTestMode } from './test-mode';

const ana = merchant({ id: 'mer_ana', name: 'Loja da Ana' });
const gone = merchant({ id: 'mer_gone', name: 'Loja Fechada', active: false });

describe('a test payment from the payments page', () => {
  const api = useFakeApi();
  beforeEach(() => {
    visit('/admin/payments');
    api.on('GET /merchants', page([gone, ana]));
    api.on('GET /payments', page([]));
  });

  const open = async () => {
    render(<Payments />);
    await userEvent.click(await screen.findByRole('button', { name: 'New test payment' }));
    return screen.getByRole('dialog', { name: 'New test payment' });
  };

  it('creates it for the chosen merchant with one Idempotency-Key, and opens its page', async () => {
    api.on('POST /test-payments', payment({ id: 'pay_test_1', merchantId: 'mer_ana', amount: 12.34 }));
    const dialog = await open();
    // The first active merchant is chosen; an inactive one is listed as such.
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Merchant').value).toBe('mer_ana');
    expect(within(dialog).getByRole('option', { name: 'Loja Fechada (inactive)' })).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Amount (R$)'), '12,34');
    await userEvent.type(within(dialog).getByLabelText('Description'), 'Trying the checkout');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create test payment of R$\u00a012,34' }));
    await waitFor(() => expect(location.pathname).toBe('/admin/payments/pay_test_1'));
    const [sent] = api.requests('POST /test-payments');
    expect(sent!.body).toEqual({ merchantId: 'mer_ana', amount: 12.34, description: 'Trying the checkout' });
    expect(sent!.headers['idempotency-key']).toMatch(/^dashboard-test-payment-[0-9a-f-]{36}$/);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sends nothing without a merchant or a valid amount, and says what to fix beside each field', async () => {
    const dialog = await open();
    await userEvent.selectOptions(within(dialog).getByLabelText('Merchant'), '');
    await userEvent.type(within(dialog).getByLabelText('Amount (R$)'), '1,234');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create test payment' }));
    expect(within(dialog).getByText('Choose the merchant the payment is for.')).toBeTruthy();
    expect(within(dialog).getByText('Enter an amount in reais, such as 10,50, with at most two decimals.')).toBeTruthy();
    expect(api.requests('POST /test-payments')).toEqual([]);
  });

  it("shows the gateway's refusal (a merchant with a live account) in the form, and retries with the same key", async () => {
    const refusal = "The merchant's route includes pa_live, a production account: test payments go only through test PSPs (the sandbox, or a PSP's homologation host).";
    api.on('POST /test-payments', new Failure(409, { code: 'CONFLICT', message: refusal }));
    const dialog = await open();
    await userEvent.type(within(dialog).getByLabelText('Amount (R$)'), '10');
    await userEvent.click(within(dialog).getByRole('button', { name: /^Create test payment/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(refusal);
    await userEvent.click(within(dialog).getByRole('button', { name: /^Create test payment/ }));
    await waitFor(() => expect(api.requests('POST /test-payments')).toHaveLength(2));
    const [first, second] = api.requests('POST /test-payments');
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
    expect(location.pathname).toBe('/admin/payments');
  });
});

describe("the merchant page's test mode", () => {
  const sandboxAccount = providerAccount({ id: 'pa_sbx', environment: 'sandbox', active: true });
  const liveAccount = providerAccount({ id: 'pa_live', environment: 'production', active: true });
  const retired = providerAccount({ id: 'pa_old', environment: 'production', active: false });

  it.each([
    ['no accounts (the built-in simulated PSP)', [], true],
    ['only homologation accounts', ['pa_sbx'], true],
    ['an inactive live account, which routing skips', ['pa_sbx', 'pa_old'], true],
    ['a live account anywhere on the route', ['pa_sbx', 'pa_live'], false],
  ] as const)('with %s: test mode is %s', (_, ids, expected) => {
    expect(merchantInTestMode({ provider_accounts: [...ids] }, [sandboxAccount, liveAccount, retired])).toBe(expected);
  });

  it('says so, and that its keys are ordinary live keys, only for a merchant in test mode', () => {
    const { rerender, container } = render(<MerchantTestModeNotice merchant={{ provider_accounts: ['pa_sbx'] }} accounts={[sandboxAccount, liveAccount]} />);
    expect(container.textContent).toMatch(/^Test mode\. Every account this merchant is charged through is a test PSP/);
    expect(container.textContent).toContain('Its API keys are ordinary mk_live_ keys');
    expect(screen.getByText('test').className).toBe('badge badge-test');
    rerender(<MerchantTestModeNotice merchant={{ provider_accounts: ['pa_live'] }} accounts={[sandboxAccount, liveAccount]} />);
    expect(container.textContent).toBe('');
    rerender(<MerchantTestModeNotice merchant={{ provider_accounts: [] }} accounts={undefined} />);
    expect(container.textContent).toBe('');
  });
});

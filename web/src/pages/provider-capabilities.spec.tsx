import { render, screen, within } from '@testing-library/react';
import { providerAccount, providerCatalogue } from '../../test/factories';
import { useFakeApi } from '../../test/fake-api';
import { ProviderAccountDetail } from './ProviderAccountDetail';

/** An account's page says whether its provider offers due-date charges and batches, as the catalogue declares, with the page that says so. */
describe("a provider account's due-date capabilities", () => {
  const api = useFakeApi();
  beforeEach(() => api.on('GET /providers', providerCatalogue()));
  const show = async (provider: string) => {
    api.on('GET /provider-accounts/{id}', providerAccount({ id: 'pa_1', name: 'Conta', provider }));
    render(<ProviderAccountDetail id="pa_1" />);
    return { due: await screen.findByTestId('capability-due-charges'), batches: screen.getByTestId('capability-charge-batches') };
  };

  it('shows both offered, with the limit of a batch and links to their sources', async () => {
    const { due, batches } = await show('banco-b');
    expect(due.textContent).toBe('Offered (stated at bacen.github.io)');
    expect(within(due).getByRole('link', { name: 'bacen.github.io' }).getAttribute('href')).toBe('https://bacen.github.io/pix-api/#/CobV');
    expect(batches.textContent).toBe('Up to 1,000 charges a request (stated at bacen.github.io)');
    expect(within(batches).getByRole('link').getAttribute('href')).toBe('https://bacen.github.io/pix-api/#/LoteCobV');
  });

  it('says what happens instead when the provider offers neither (Mercado Pago)', async () => {
    const { due, batches } = await show('mercadopago');
    expect(due.textContent).toBe('Not offered: payments with a due date are routed to other accounts.');
    expect(batches.textContent).toBe('Not offered.');
  });

  it('names a repository page as a source by its path', async () => {
    const { due, batches } = await show('simulated');
    expect(due.textContent).toBe('Offered (stated at docs/sandbox.md)');
    expect(within(due).queryByRole('link')).toBeNull();
    expect(batches.textContent).toBe('Not offered: a batch is sent as one create per charge.');
  });
});

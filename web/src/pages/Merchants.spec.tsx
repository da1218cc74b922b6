import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows, visit } from '../../test/dom';
import { merchant, page, providerCatalogue } from '../../test/factories';
import { Failure, useFakeApi, validationFailure } from '../../test/fake-api';
import { formatDate } from '../format';
import { Merchants } from './Merchants';

describe('Merchants', () => {
  const api = useFakeApi();
  const listed = () => api.requests('GET /merchants').map((r) => r.query);
  beforeEach(() => visit('/admin/merchants'));

  it('lists merchants with their status, webhook URL and provider', async () => {
    api.on('GET /merchants', page([merchant({ id: 'mer_a', name: 'Loja A', provider: 'sandbox' }), merchant({ id: 'mer_b', name: 'Loja B', active: false, webhook_url: null })]));
    render(<Merchants />);
    await screen.findByRole('table');
    const created = formatDate(merchant().created_at);
    expect(tableRows()).toEqual([
      ['Loja Amer_a', 'active', 'https://shop.example.com/webhooks/pix', 'sandbox', created],
      ['Loja Bmer_b', 'inactive', 'none', 'default', created],
    ]);
    expect(screen.getByRole('link', { name: 'Loja B' }).getAttribute('href')).toBe('/admin/merchants/mer_b');
    expect(listed()).toEqual([{ limit: '25' }]);
  });

  it('searches as the operator types, once they pause', async () => {
    api.on('GET /merchants', ({ query }) => page(query.q ? [] : [merchant()]));
    render(<Merchants />);
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search merchants' }), 'ana ');
    expect(await screen.findByText('No merchant matches “ana”.')).toBeTruthy();
    expect(location.search).toBe('?q=ana');
    expect(listed().at(-1)).toEqual({ q: 'ana', limit: '25' });
  });

  it('invites to create the first merchant when there is none', async () => {
    api.on('GET /merchants', page([]));
    render(<Merchants />);
    expect(await screen.findByText('No merchants yet. Create the first one to issue it an API key.')).toBeTruthy();
  });

  it('loads more with the cursor, and tells when that fails', async () => {
    let failNext = false;
    api.on('GET /merchants', ({ query }) =>
      failNext
        ? new Failure(429, { code: 'RATE_LIMITED', message: 'Too many requests.' })
        : query.cursor === 'c2'
          ? page([merchant({ name: 'Loja 2' })], 'c3')
          : page([merchant({ name: 'Loja 1' })], 'c2'),
    );
    render(<Merchants />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'Loja 2' })).toBeTruthy();
    expect(listed()[1]).toEqual({ limit: '25', cursor: 'c2' });
    failNext = true;
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many requests.');
    expect(tableRows()).toHaveLength(2);
  });

  describe('new merchant', () => {
    const open = async () => {
      api.on('GET /merchants', page([]));
      api.on('GET /providers', providerCatalogue());
      render(<Merchants />);
      await userEvent.click(screen.getByRole('button', { name: 'New merchant' }));
      return screen.getByRole('dialog', { name: 'New merchant' });
    };

    it('checks the form before sending it', async () => {
      const dialog = await open();
      await userEvent.type(within(dialog).getByLabelText('Webhook URL'), 'shop.example.com');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Create merchant' }));
      expect(within(dialog).getByText('Give the merchant a name.')).toBeTruthy();
      expect(within(dialog).getByText('Enter a full http:// or https:// address, or leave it empty.')).toBeTruthy();
      expect(api.requests('POST /merchants')).toHaveLength(0);
    });

    it('creates it with a generated signing secret, shows the secret once, then opens the merchant', async () => {
      api.on('POST /merchants', ({ body }) => merchant({ id: 'mer_new', name: body.name, webhook_signing_secret: 'whsec_MfKQ9r8GKYqrTwjU' }));
      const dialog = await open();
      await userEvent.type(within(dialog).getByLabelText('Name'), ' Loja Nova ');
      await userEvent.type(within(dialog).getByLabelText('Webhook URL'), 'https://nova.example/pix');
      // The providers a merchant without accounts can use are the choices, from the catalogue (its built-in ones).
      await waitFor(() => expect([...within(dialog).getByLabelText<HTMLSelectElement>('Provider').options].map((o) => o.value)).toEqual(['', 'simulated']));
      await userEvent.selectOptions(within(dialog).getByLabelText('Provider'), 'simulated');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Create merchant' }));
      const reveal = await screen.findByRole('dialog', { name: 'Loja Nova created: webhook signing secret' });
      expect(reveal.textContent).toContain('whsec_MfKQ9r8GKYqrTwjU');
      expect(api.requests('POST /merchants')[0]!.body).toEqual({
        name: 'Loja Nova',
        webhook_url: 'https://nova.example/pix',
        provider: 'simulated',
        webhook_signing_secret: 'generate',
      });
      await userEvent.click(within(reveal).getByRole('button', { name: 'I have stored it safely' }));
      expect(location.pathname).toBe('/admin/merchants/mer_new');
    });

    it('sends only the name when that is all there is, and opens the merchant at once', async () => {
      api.on('POST /merchants', merchant({ id: 'mer_plain' }));
      const dialog = await open();
      await userEvent.type(within(dialog).getByLabelText('Name'), 'Loja Simples');
      await userEvent.click(within(dialog).getByRole('checkbox', { name: /Generate a webhook signing secret/ }));
      await userEvent.click(within(dialog).getByRole('button', { name: 'Create merchant' }));
      await waitFor(() => expect(location.pathname).toBe('/admin/merchants/mer_plain'));
      expect(api.requests('POST /merchants')[0]!.body).toEqual({ name: 'Loja Simples' });
    });

    it('can refund money received after close automatically from the start', async () => {
      api.on('POST /merchants', merchant({ id: 'mer_auto', refund_after_close: true }));
      const dialog = await open();
      await userEvent.type(within(dialog).getByLabelText('Name'), 'Loja Auto');
      await userEvent.click(within(dialog).getByRole('checkbox', { name: /Generate a webhook signing secret/ }));
      await userEvent.click(within(dialog).getByRole('checkbox', { name: /Refund money received after close automatically/ }));
      await userEvent.click(within(dialog).getByRole('button', { name: 'Create merchant' }));
      await waitFor(() => expect(location.pathname).toBe('/admin/merchants/mer_auto'));
      expect(api.requests('POST /merchants')[0]!.body).toEqual({ name: 'Loja Auto', refund_after_close: true });
    });

    it("places the API's refusal beside the field it is about", async () => {
      api.on('POST /merchants', validationFailure([{ field: 'webhook_url', message: 'webhook_url must be a public https URL' }]));
      const dialog = await open();
      await userEvent.type(within(dialog).getByLabelText('Name'), 'Loja');
      await userEvent.type(within(dialog).getByLabelText('Webhook URL'), 'http://10.0.0.1/pix');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Create merchant' }));
      expect((await within(dialog).findByRole('alert')).textContent).toBe('Please check: webhook_url must be a public https URL.');
      expect(within(dialog).getByText('webhook_url must be a public https URL')).toBeTruthy();
      expect(within(dialog).getByLabelText('Webhook URL').getAttribute('aria-invalid')).toBe('true');
    });
  });
});

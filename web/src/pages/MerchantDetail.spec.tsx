import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { accountHealth, merchant, providerAccount, providerCatalogue } from '../../test/factories';
import { useFakeApi, validationFailure } from '../../test/fake-api';
import { tableRows } from '../../test/dom';
import { formatDate } from '../format';
import { MerchantDetail } from './MerchantDetail';

// The merchant form's submission on the merchant's page (merchant-form.tsx holds its rules), and
// the page's own changes that reach the API.
describe('MerchantDetail', () => {
  const api = useFakeApi();
  const ana = merchant({ id: 'mer_ana', name: 'Loja da Ana', webhook_url: 'https://ana.example/pix', provider: 'sandbox' });
  beforeEach(() => {
    api.on('GET /merchants/{id}', ana);
    api.on('GET /merchants/{id}/api-keys', []);
    api.on('GET /provider-accounts', []);
    api.on('GET /providers', providerCatalogue());
  });
  const settings = async () => within(await screen.findByRole('form', { name: 'Merchant settings' }));

  it('sends only the fields changed, an emptied one as null, and says it is saved', async () => {
    api.on('PATCH /merchants/{id}', { ...ana, name: 'Loja Nova', webhook_url: null, updated_at: '2024-05-03T10:00:00.000Z' });
    render(<MerchantDetail id="mer_ana" />);
    const form = await settings();
    expect(form.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true);
    await userEvent.clear(form.getByLabelText('Name'));
    await userEvent.type(form.getByLabelText('Name'), ' Loja Nova ');
    await userEvent.clear(form.getByLabelText('Webhook URL'));
    await userEvent.click(form.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('status')).textContent).toContain('Changes saved.');
    expect((await settings()).getByLabelText('Name')).toHaveProperty('value', 'Loja Nova');
    expect(api.requests('PATCH /merchants/{id}').map((r) => [r.params.id, r.body])).toEqual([['mer_ana', { name: 'Loja Nova', webhook_url: null }]]);
  });

  it('sets the display name and brand colour payers see, and clears them back to null', async () => {
    api.on('PATCH /merchants/{id}', ({ body }) => ({
      ...ana,
      display_name: body.display_name ?? null,
      brand_color: body.brand_color?.toLowerCase() ?? null,
      updated_at: `2024-05-03T10:00:0${api.requests('PATCH /merchants/{id}').length}.000Z`,
    }));
    render(<MerchantDetail id="mer_ana" />);
    let form = await settings();
    await userEvent.type(form.getByLabelText('Display name'), 'Ana Doces');
    await userEvent.type(form.getByLabelText('Brand colour'), '#0B6E4F');
    expect(form.getByText('Contrast on white 6.2:1')).toBeTruthy();
    await userEvent.click(form.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('status')).textContent).toContain('Changes saved.');

    form = await settings();
    expect(form.getByLabelText('Display name')).toHaveProperty('value', 'Ana Doces');
    await userEvent.clear(form.getByLabelText('Display name'));
    await userEvent.click(form.getByRole('button', { name: 'Clear' }));
    await userEvent.click(form.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.requests('PATCH /merchants/{id}')).toHaveLength(2));
    expect(api.requests('PATCH /merchants/{id}').map((r) => r.body)).toEqual([
      { display_name: 'Ana Doces', brand_color: '#0B6E4F' },
      { display_name: null, brand_color: null },
    ]);
  });

  it('refuses to save a colour that is not #RRGGBB, and says why beside it', async () => {
    render(<MerchantDetail id="mer_ana" />);
    const form = await settings();
    await userEvent.type(form.getByLabelText('Brand colour'), 'teal');
    await userEvent.click(form.getByRole('button', { name: 'Save changes' }));
    expect(form.getByText('Enter a colour as # and six hexadecimal digits (#0F766E), or leave it empty.')).toBeTruthy();
    expect(api.requests('PATCH /merchants/{id}')).toHaveLength(0);
  });

  describe('money received after close', () => {
    const card = async () => within((await screen.findByRole('heading', { name: 'Money received after close' })).closest('section')!);

    it('says the operator refunds it, and turns on refunding it automatically', async () => {
      api.on('PATCH /merchants/{id}', { ...ana, refund_after_close: true, updated_at: '2024-05-03T10:00:00.000Z' });
      render(<MerchantDetail id="mer_ana" />);
      const section = await card();
      expect(section.getByText(/Left to the operator/)).toBeTruthy();
      await userEvent.click(section.getByRole('button', { name: 'Refund automatically' }));
      expect((await screen.findByRole('status')).textContent).toContain('Money received after close is now refunded automatically, in full.');
      expect(api.requests('PATCH /merchants/{id}').map((r) => r.body)).toEqual([{ refund_after_close: true }]);
      expect((await card()).getByText(/Refunded automatically/)).toBeTruthy();
      expect((await card()).getByRole('button', { name: 'Stop refunding automatically' })).toBeTruthy();
    });

    it('turns it off again', async () => {
      api.on('GET /merchants/{id}', { ...ana, refund_after_close: true });
      api.on('PATCH /merchants/{id}', { ...ana, refund_after_close: false });
      render(<MerchantDetail id="mer_ana" />);
      await userEvent.click((await card()).getByRole('button', { name: 'Stop refunding automatically' }));
      expect((await screen.findByRole('status')).textContent).toContain('Money received after close is now left to the operator to refund.');
      expect(api.requests('PATCH /merchants/{id}').map((r) => r.body)).toEqual([{ refund_after_close: false }]);
    });
  });

  it('keeps a form the API refused, with the reason beside the field', async () => {
    api.on('PATCH /merchants/{id}', validationFailure([{ field: 'provider', message: 'provider must be a registered provider' }]));
    render(<MerchantDetail id="mer_ana" />);
    const form = await settings();
    // The provider is chosen among those the gateway runs (the catalogue's built-in ones), once they are read.
    await form.findByRole('option', { name: 'Simulated PSP' });
    await userEvent.selectOptions(form.getByLabelText('Provider'), 'simulated');
    await userEvent.click(form.getByRole('button', { name: 'Save changes' }));
    expect((await form.findByRole('alert')).textContent).toBe('Please check: provider must be a registered provider.');
    expect(form.getByText('provider must be a registered provider')).toBeTruthy();
    expect(form.getByLabelText('Provider')).toHaveProperty('value', 'simulated');
    expect(api.requests('PATCH /merchants/{id}').map((r) => r.body)).toEqual([{ provider: 'simulated' }]);
  });

  it("lists each key's last use: never, within the last minute, or how long ago, with the date on hover", async () => {
    const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
    const old = ago(3 * 3600_000);
    api.on('GET /merchants/{id}/api-keys', [
      { id: 'key_new', prefix: 'mk_live_NeWk', created_at: ago(60_000), last_used_at: null, revoked_at: null },
      { id: 'key_now', prefix: 'mk_live_NoWk', created_at: ago(86400_000), last_used_at: ago(20_000), revoked_at: null },
      { id: 'key_old', prefix: 'mk_live_OlDk', created_at: ago(5 * 86400_000), last_used_at: old, revoked_at: ago(3600_000) },
    ]);
    render(<MerchantDetail id="mer_ana" />);
    await screen.findByRole('table', { name: 'API keys' });
    const headers = screen.getAllByRole('columnheader').map((th) => th.textContent);
    const column = headers.indexOf('Last used');
    expect(column).toBeGreaterThan(0);
    expect(tableRows('API keys').map((cells) => [cells[0], cells[column]])).toEqual([
      ['mk_live_NeWk…', 'never'],
      ['mk_live_NoWk…', 'within the last minute'],
      ['mk_live_OlDk…', '3 h ago'],
    ]);
    expect(screen.getByText('3 h ago').getAttribute('title')).toBe(formatDate(old));
  });

  it('sends a test event to the webhook URL and shows what the endpoint answered', async () => {
    api.on('POST /merchants/{id}/test-event', {
      id: 'evt_t',
      body: { event: 'test.ping' },
      url: 'https://ana.example/pix',
      ok: true,
      status_code: 200,
      latency_ms: 31,
      error: null,
      response_excerpt: '{"pong":true}',
      sent_at: '2024-05-02T13:45:10.000Z',
    });
    render(<MerchantDetail id="mer_ana" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Send test event' }));
    const result = await screen.findByRole('status', { name: 'Test event result' });
    expect(result.textContent).toContain('Answered HTTP 200 in 31 msSent to https://ana.example/pix');
    expect(within(result).getByText('{"pong":true}')).toBeTruthy();
    expect(api.requests('POST /merchants/{id}/test-event').map((r) => r.params.id)).toEqual(['mer_ana']);
  });

  it('issues an API key and shows it once', async () => {
    api.on('POST /merchants/{id}/api-keys', { id: 'key_1', key: 'mk_live_AbCdEfGh', prefix: 'mk_live_AbCd', created_at: ana.created_at });
    render(<MerchantDetail id="mer_ana" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Issue key' }));
    const reveal = await screen.findByRole('dialog', { name: 'New API key' });
    expect(reveal.textContent).toContain('mk_live_AbCdEfGh');
    await waitFor(() => expect(api.requests('GET /merchants/{id}/api-keys')).toHaveLength(2));
  });

  it('deactivates the merchant once confirmed', async () => {
    api.on('PATCH /merchants/{id}', { ...ana, active: false });
    render(<MerchantDetail id="mer_ana" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Deactivate this merchant?' })).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByRole('button', { name: 'Reactivate' })).toBeTruthy();
    expect(api.requests('PATCH /merchants/{id}').map((r) => r.body)).toEqual([{ active: false }]);
  });

  describe('provider accounts', () => {
    const efi = providerAccount({ id: 'pa_efi', name: 'Efí', provider: 'banco-b' });
    const bb = providerAccount({ id: 'pa_bb', name: 'BB', provider: 'banco-a', environment: 'production' });
    const old = providerAccount({ id: 'pa_old', name: 'Antiga', provider: 'coop', active: false });
    const card = () => screen.getByRole('heading', { name: 'Provider accounts' }).closest('section')!;
    const order = (name: string) =>
      within(within(card()).getByRole('list', { name }))
        .getAllByRole('listitem')
        .map((item) => within(item).queryByRole('link')?.textContent ?? item.textContent);

    it("says the merchant's provider serves it while no account is chosen", async () => {
      render(<MerchantDetail id="mer_ana" />);
      expect((await screen.findByText(/None chosen/)).textContent).toBe('None chosen: payments go through the sandbox provider, with its built-in configuration.');
    });

    it('shows the chosen accounts in order, the inactive ones marked', async () => {
      api.on('GET /merchants/{id}', { ...ana, provider_accounts: ['pa_old', 'pa_efi'] });
      api.on('GET /provider-accounts', [efi, bb, old]);
      render(<MerchantDetail id="mer_ana" />);
      await screen.findByRole('link', { name: 'Efí' });
      expect(order('Provider accounts in order')).toEqual(['Antiga', 'Efí']);
      // The provider's label comes with the catalogue.
      await waitFor(() => expect(within(card()).getByRole('link', { name: 'Antiga' }).closest('li')!.textContent).toBe('Antiga Cooperativa sandbox inactive'));
      expect(within(card()).getByRole('link', { name: 'Efí' }).getAttribute('href')).toBe('/admin/provider-accounts/pa_efi');
    });

    it('chooses and orders active accounts, drops an inactive one, and saves the list', async () => {
      api.on('GET /merchants/{id}', { ...ana, provider_accounts: ['pa_old', 'pa_efi'] });
      api.on('GET /provider-accounts', [efi, bb, old]);
      api.on('PATCH /merchants/{id}', ({ body }) => ({ ...ana, provider_accounts: body.provider_accounts ?? [] }));
      render(<MerchantDetail id="mer_ana" />);
      await screen.findByRole('link', { name: 'Efí' });
      await screen.findByText('Cooperativa');
      await userEvent.click(within(card()).getByRole('button', { name: 'Change accounts' }));
      expect(order('Chosen provider accounts')).toEqual(['Efí']);
      expect(within(card()).getByRole('status').textContent).toBe('One account in the list is inactive or gone: saving removes it.');
      const add = within(card()).getByLabelText('Add an account');
      expect(
        within(add)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Choose an active account…', 'BB (Banco A, production)']);
      await userEvent.selectOptions(add, 'pa_bb');
      expect(order('Chosen provider accounts')).toEqual(['Efí', 'BB']);
      expect(within(card()).getByRole('button', { name: 'Move BB down' })).toHaveProperty('disabled', true);
      await userEvent.click(within(card()).getByRole('button', { name: 'Move BB up' }));
      expect(order('Chosen provider accounts')).toEqual(['BB', 'Efí']);
      await userEvent.click(within(card()).getByRole('button', { name: 'Save accounts' }));
      expect(await screen.findByText('The provider accounts are saved: payments try them in this order.')).toBeTruthy();
      expect(order('Provider accounts in order')).toEqual(['BB', 'Efí']);
      expect(api.requests('PATCH /merchants/{id}').map((r) => r.body)).toEqual([{ provider_accounts: ['pa_bb', 'pa_efi'] }]);
    });

    it('says the order is the routing order, and marks an account whose circuit is not closed', async () => {
      const down = providerAccount({ id: 'pa_down', name: 'Fora', provider: 'banco-a', health: accountHealth({ circuit: 'open', recent_failures: 6 }) });
      api.on('GET /merchants/{id}', { ...ana, provider_accounts: ['pa_down', 'pa_efi'] });
      api.on('GET /provider-accounts', [down, { ...efi, health: accountHealth() }]);
      render(<MerchantDetail id="mer_ana" />);
      await screen.findByRole('link', { name: 'Fora' });
      expect(within(card()).getByText(/^Routing order:/).textContent).toBe(
        'Routing order: payments try the first account first, and move down the list only when one refuses, times out, fails (5xx) or has its circuit open.',
      );
      expect(within(card()).getByRole('link', { name: 'Fora' }).closest('li')!.textContent).toContain('circuit open');
      // A closed circuit is the normal case and says nothing.
      expect(within(card()).getByRole('link', { name: 'Efí' }).closest('li')!.textContent).not.toContain('circuit');
    });

    it('reorders from the keyboard: focus follows the moved account, its new place is announced, and the order is saved', async () => {
      const user = userEvent.setup();
      const mp = providerAccount({ id: 'pa_mp', name: 'Mercado Pago', provider: 'mercadopago' });
      api.on('GET /merchants/{id}', { ...ana, provider_accounts: ['pa_efi', 'pa_bb', 'pa_mp'] });
      api.on('GET /provider-accounts', [efi, bb, mp]);
      api.on('PATCH /merchants/{id}', ({ body }) => ({ ...ana, provider_accounts: body.provider_accounts ?? [] }));
      render(<MerchantDetail id="mer_ana" />);
      await screen.findByRole('link', { name: 'Efí' });
      within(card()).getByRole('button', { name: 'Change accounts' }).focus();
      await user.keyboard('{Enter}');
      const up = within(card()).getByRole('button', { name: 'Move Mercado Pago up' });
      up.focus();
      await user.keyboard('{Enter}');
      expect(order('Chosen provider accounts')).toEqual(['Efí', 'Mercado Pago', 'BB']);
      expect(document.activeElement).toBe(within(card()).getByRole('button', { name: 'Move Mercado Pago up' }));
      await user.keyboard(' ');
      expect(order('Chosen provider accounts')).toEqual(['Mercado Pago', 'Efí', 'BB']);
      // At the top its "up" button is disabled: focus moves to its "down" one rather than being lost.
      expect(within(card()).getByRole('button', { name: 'Move Mercado Pago up' })).toHaveProperty('disabled', true);
      expect(document.activeElement).toBe(within(card()).getByRole('button', { name: 'Move Mercado Pago down' }));
      expect(within(card()).getByText('Mercado Pago is now number 1 of 3.').getAttribute('aria-live')).toBe('polite');
      await user.click(within(card()).getByRole('button', { name: 'Save accounts' }));
      expect(await screen.findByText('The provider accounts are saved: payments try them in this order.')).toBeTruthy();
      expect(order('Provider accounts in order')).toEqual(['Mercado Pago', 'Efí', 'BB']);
      expect(api.requests('PATCH /merchants/{id}').map((r) => r.body)).toEqual([{ provider_accounts: ['pa_mp', 'pa_efi', 'pa_bb'] }]);
    });

    it('removes an account, and keeps the list being edited when the API refuses it', async () => {
      api.on('GET /merchants/{id}', { ...ana, provider_accounts: ['pa_efi', 'pa_bb'] });
      api.on('GET /provider-accounts', [efi, bb]);
      api.on(
        'PATCH /merchants/{id}',
        validationFailure([{ field: 'provider_accounts', message: 'provider_accounts must list active provider accounts; unknown or inactive: pa_bb' }]),
      );
      render(<MerchantDetail id="mer_ana" />);
      await screen.findByRole('link', { name: 'Efí' });
      await userEvent.click(within(card()).getByRole('button', { name: 'Change accounts' }));
      await userEvent.click(within(card()).getByRole('button', { name: 'Remove Efí' }));
      expect(order('Chosen provider accounts')).toEqual(['BB']);
      await userEvent.click(within(card()).getByRole('button', { name: 'Save accounts' }));
      expect((await within(card()).findByRole('alert')).textContent).toBe('Please check: provider_accounts must list active provider accounts; unknown or inactive: pa_bb.');
      expect(order('Chosen provider accounts')).toEqual(['BB']);
      expect(api.requests('PATCH /merchants/{id}').map((r) => r.body)).toEqual([{ provider_accounts: ['pa_bb'] }]);
    });
  });
});

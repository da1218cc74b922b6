import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { merchant } from '../../test/factories';
import { useFakeApi, validationFailure } from '../../test/fake-api';
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

  it('keeps a form the API refused, with the reason beside the field', async () => {
    api.on('PATCH /merchants/{id}', validationFailure([{ field: 'provider', message: 'provider must be a registered provider' }]));
    render(<MerchantDetail id="mer_ana" />);
    const form = await settings();
    await userEvent.clear(form.getByLabelText('Provider'));
    await userEvent.type(form.getByLabelText('Provider'), 'efi');
    await userEvent.click(form.getByRole('button', { name: 'Save changes' }));
    expect((await form.findByRole('alert')).textContent).toBe('Please check: provider must be a registered provider.');
    expect(form.getByText('provider must be a registered provider')).toBeTruthy();
    expect(form.getByLabelText('Provider')).toHaveProperty('value', 'efi');
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
});

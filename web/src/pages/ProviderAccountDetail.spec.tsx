import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { accountCheck, accountHealth, daysFromNow, providerAccount, providerCatalogue, withoutHealth } from '../../test/factories';
import { formatDate } from '../format';
import { Failure, useFakeApi, validationFailure } from '../../test/fake-api';
import { ProviderAccountDetail } from './ProviderAccountDetail';

const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2xpZW50\n-----END CERTIFICATE-----';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqG\n-----END PRIVATE KEY-----';

describe('ProviderAccountDetail', () => {
  const api = useFakeApi();
  const efi = providerAccount({
    id: 'pa_efi',
    name: 'Efí — Loja da Ana',
    provider: 'banco-b',
    base_url: 'https://pix-h.example/v2',
    token_url: null,
    pix_key: 'chave@example.com',
    webhook_url: 'https://gw.example/webhooks/efi/pa_efi',
  });
  efi.credentials_summary = { client_id: 'Client_Id_4f1c', certificate_subject: 'CN=loja-da-ana, O=Loja da Ana', certificate_expires_at: daysFromNow(5.5) };
  beforeEach(() => {
    api.on('GET /provider-accounts/{id}', efi);
    api.on('GET /providers', providerCatalogue());
  });
  const settings = async () => within(await screen.findByRole('form', { name: 'Account settings' }));

  it('shows the account: its webhook URL, the credentials summary, and a warning for a certificate near its end', async () => {
    render(<ProviderAccountDetail id="pa_efi" />);
    expect(await screen.findByRole('heading', { name: /Efí — Loja da Ana/ })).toBeTruthy();
    expect(screen.getByTestId('webhook-url').textContent).toBe('https://gw.example/webhooks/efi/pa_efi');
    expect(screen.getByText('Client_Id_4f1c')).toBeTruthy();
    expect(screen.getByText('CN=loja-da-ana, O=Loja da Ana')).toBeTruthy();
    expect(screen.getByText('expires in 5 days')).toBeTruthy();
    expect(await screen.findByText('Banco B')).toBeTruthy();
    expect(screen.getByText('sandbox').className).toBe('badge badge-env badge-env-sandbox');
    expect(api.requests('GET /provider-accounts/{id}').map((r) => r.params.id)).toEqual(['pa_efi']);
  });

  it("shows the account's health: the circuit explained, failures in a row and in the last hour, the last failure and its error", async () => {
    const failedAt = '2024-05-02T13:40:00.000Z';
    api.on(
      'GET /provider-accounts/{id}',
      providerAccount({
        ...efi,
        health: accountHealth({ circuit: 'open', consecutive_failures: 5, recent_failures: 9, last_failure_at: failedAt, last_error: 'the PSP answered 503' }),
      }),
    );
    render(<ProviderAccountDetail id="pa_efi" />);
    const card = within((await screen.findByRole('heading', { name: 'Health' })).closest('section')!);
    const value = (term: string) => card.getByText(term).nextElementSibling!.textContent;
    expect(value('Circuit')).toBe('circuit open Payments skip this account for now and go to the next one in each merchant’s order.');
    expect(card.getByText('circuit open').className).toBe('badge badge-red');
    expect(value('Failures in a row')).toBe('5');
    expect(value('Last hour')).toBe('9 failures in the last hour');
    expect(value('Last failure')).toBe(formatDate(failedAt));
    expect(value('Last error')).toBe('the PSP answered 503');
  });

  it('says a healthy account has had no failure, and shows no health at all when the gateway sends none', async () => {
    api.on('GET /provider-accounts/{id}', providerAccount({ ...efi, health: accountHealth() }));
    const { unmount } = render(<ProviderAccountDetail id="pa_efi" />);
    const card = within((await screen.findByRole('heading', { name: 'Health' })).closest('section')!);
    expect(card.getByText('Last failure').nextElementSibling!.textContent).toBe('none');
    expect(card.getByText('Last hour').nextElementSibling!.textContent).toBe('no failures in the last hour');
    expect(card.queryByText('Last error')).toBeNull();
    unmount();

    api.on('GET /provider-accounts/{id}', withoutHealth(efi));
    render(<ProviderAccountDetail id="pa_efi" />);
    expect(await screen.findByRole('heading', { name: 'Credentials' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Health' })).toBeNull();
  });

  it('shows a Mercado Pago account from its catalogue entry: secrets only, no webhook to register, no certificate', async () => {
    api.on(
      'GET /provider-accounts/{id}',
      providerAccount({
        id: 'pa_mp',
        name: 'Mercado Pago — Loja',
        provider: 'mercadopago',
        base_url: null,
        token_url: null,
        pix_key: null,
        credentials_summary: { client_id: null, certificate_subject: null, certificate_expires_at: null },
      }),
    );
    api.on('PATCH /provider-accounts/{id}', ({ body }) => providerAccount({ id: 'pa_mp', provider: 'mercadopago', name: body.name ?? 'Mercado Pago — Loja' }));
    render(<ProviderAccountDetail id="pa_mp" />);
    expect(await screen.findByText("This provider's credentials are secrets only: they are never shown.")).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Check' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Register webhook' })).toBeNull();
    const form = await settings();
    expect(form.queryByLabelText('Pix key')).toBeNull();
    expect(form.getByLabelText('API base URL').getAttribute('placeholder')).toBe('https://api.mercadopago.com');
    await userEvent.click(screen.getByRole('button', { name: 'Replace credentials' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Replace credentials' }));
    await userEvent.type(dialog.getByLabelText('Access token'), 'APP_USR-new');
    await userEvent.type(dialog.getByLabelText('Webhook secret'), 'new-secret');
    await userEvent.click(dialog.getByRole('button', { name: 'Replace credentials' }));
    await waitFor(() =>
      expect(api.requests('PATCH /provider-accounts/{id}').map((r) => r.body)).toEqual([{ credentials: { access_token: 'APP_USR-new', webhook_secret: 'new-secret' } }]),
    );
  });

  it('saves only the settings changed, an emptied one as null', async () => {
    api.on('PATCH /provider-accounts/{id}', ({ body }) => ({ ...efi, ...body, updated_at: '2024-05-03T10:00:00.000Z' }));
    render(<ProviderAccountDetail id="pa_efi" />);
    const form = await settings();
    expect(form.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true);
    await userEvent.clear(form.getByLabelText('Name'));
    await userEvent.type(form.getByLabelText('Name'), ' Efí — Matriz ');
    await userEvent.clear(form.getByLabelText('API base URL'));
    await userEvent.click(form.getByRole('button', { name: 'Save changes' }));
    expect((await screen.findByText('Changes saved.')).textContent).toBe('Changes saved.');
    expect(api.requests('PATCH /provider-accounts/{id}').map((r) => [r.params.id, r.body])).toEqual([['pa_efi', { name: 'Efí — Matriz', base_url: null }]]);
    expect((await settings()).getByLabelText('Name')).toHaveProperty('value', 'Efí — Matriz');
  });

  it("shows only the settings the account's provider takes, with its hosts as placeholders", async () => {
    api.on('GET /provider-accounts/{id}', providerAccount({ id: 'pa_sim', name: 'Simulada', provider: 'simulated', base_url: null, token_url: null, pix_key: null }));
    render(<ProviderAccountDetail id="pa_sim" />);
    const form = await settings();
    await waitFor(() => expect(form.queryByLabelText('Pix key')).toBeNull());
    expect(form.queryByLabelText('Token URL')).toBeNull();
    expect(form.getByLabelText('Sandbox URL').getAttribute('placeholder')).toBe('http://127.0.0.1:3000/sandbox');
    // It registers no webhook, and has no certificate to summarize.
    expect(screen.queryByRole('button', { name: 'Register webhook' })).toBeNull();
    expect(screen.getByText("This provider's credentials are secrets only: they are never shown.")).toBeTruthy();
  });

  it('checks the account and shows what the PSP answered', async () => {
    let answer = accountCheck({ ok: true, latency_ms: 84 });
    api.on('POST /provider-accounts/{id}/check', () => answer);
    render(<ProviderAccountDetail id="pa_efi" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Check' }));
    expect((await screen.findByText('The account works.')).closest('.notice')!.textContent).toContain('ok 84 ms');
    answer = accountCheck({ ok: false, latency_ms: 312, detail: 'GET /cob answered HTTP 403' });
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect((await screen.findByText('The check failed.')).closest('.notice')!.textContent).toContain('failed 312 msGET /cob answered HTTP 403');
  });

  it('registers the webhook and shows the URL the PSP now posts to', async () => {
    api.on('POST /provider-accounts/{id}/webhook', { registered: true, webhook_url: 'https://gw.example/webhooks/efi/pa_efi' });
    render(<ProviderAccountDetail id="pa_efi" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Register webhook' }));
    expect((await screen.findByRole('status')).querySelector('.notice-body')!.textContent).toBe(
      "The webhook is registered: the PSP now posts this account's events to https://gw.example/webhooks/efi/pa_efi",
    );
    expect(api.requests('POST /provider-accounts/{id}/webhook').map((r) => r.params.id)).toEqual(['pa_efi']);
  });

  it('says so when the PSP refuses the webhook (502)', async () => {
    api.on(
      'POST /provider-accounts/{id}/webhook',
      new Failure(502, {
        code: 'UPSTREAM_ERROR',
        message: 'The payment provider "efi" failed (HTTP 500).',
        upstream_status: 500,
        details: { provider_message: 'Erro interno no servidor.' },
      }),
    );
    render(<ProviderAccountDetail id="pa_efi" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Register webhook' }));
    expect((await screen.findByRole('alert')).querySelector('.notice-body')!.textContent).toBe(
      'The payment provider did not accept this (it answered 500): Erro interno no servidor.',
    );
    expect(screen.queryByText(/The webhook is registered/)).toBeNull();
  });

  it('replaces the credentials whole; a refusal stays in the dialog, beside the field it is about', async () => {
    let refuse = true;
    api.on('PATCH /provider-accounts/{id}', () =>
      refuse
        ? validationFailure([{ field: 'credentials.private_key_pem', message: 'does not match the certificate (the first one of certificate_pem)' }])
        : { ...efi, updated_at: '2024-05-03T10:00:00.000Z' },
    );
    render(<ProviderAccountDetail id="pa_efi" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Replace credentials' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Replace credentials' }));
    await userEvent.type(dialog.getByLabelText('Client ID'), 'Client_Id_2');
    await userEvent.type(dialog.getByLabelText('Client secret'), 'Client_Secret_2');
    await userEvent.click(dialog.getByLabelText('Certificate (PEM)'));
    await userEvent.paste(CERTIFICATE);
    await userEvent.click(dialog.getByLabelText('Private key (PEM)'));
    await userEvent.paste(KEY);
    await userEvent.click(dialog.getByRole('button', { name: 'Replace credentials' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Please check: private_key_pem does not match the certificate (the first one of certificate_pem).');
    expect(dialog.getByLabelText('Private key (PEM)').getAttribute('aria-invalid')).toBe('true');

    refuse = false;
    await userEvent.click(dialog.getByRole('button', { name: 'Replace credentials' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('The new credentials are in place.')).toBeTruthy();
    expect(api.requests('PATCH /provider-accounts/{id}').map((r) => r.body)).toEqual([
      { credentials: { client_id: 'Client_Id_2', client_secret: 'Client_Secret_2', certificate_pem: CERTIFICATE, private_key_pem: KEY } },
      { credentials: { client_id: 'Client_Id_2', client_secret: 'Client_Secret_2', certificate_pem: CERTIFICATE, private_key_pem: KEY } },
    ]);
  });

  it('shows the receiver account, changes it in a dialog, and removes it once confirmed', async () => {
    const receiver = { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' } as const;
    api.on('GET /provider-accounts/{id}', { ...efi, receiver_account: receiver });
    api.on('PATCH /provider-accounts/{id}', ({ body }) => ({ ...efi, receiver_account: body.receiver_account ?? null, updated_at: '2024-05-03T10:00:00.000Z' }));
    render(<ProviderAccountDetail id="pa_efi" />);
    const card = within((await screen.findByRole('heading', { name: 'Recurring Pix' })).closest('section')!);
    const value = (term: string) => card.getByText(term).nextElementSibling!.textContent;
    expect([value('Branch'), value('Account'), value('Type')]).toEqual(['0001', '1234567', 'Checking (corrente)']);

    await userEvent.click(card.getByRole('button', { name: 'Change' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Receiver account' }));
    expect(dialog.getByLabelText('Branch (agência)')).toHaveProperty('value', '0001');
    await userEvent.clear(dialog.getByLabelText('Account number (conta)'));
    await userEvent.type(dialog.getByLabelText('Account number (conta)'), '7654321');
    await userEvent.selectOptions(dialog.getByLabelText('Account type'), 'PAGAMENTO');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The receiver account is saved.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    const updated = within(screen.getByRole('heading', { name: 'Recurring Pix' }).closest('section')!);
    await userEvent.click(updated.getByRole('button', { name: 'Remove' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Remove the receiver account?' })).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('The receiver account is removed.')).toBeTruthy();
    expect(within(screen.getByRole('heading', { name: 'Recurring Pix' }).closest('section')!).getByText(/No receiver account/)).toBeTruthy();
    expect(api.requests('PATCH /provider-accounts/{id}').map((r) => r.body)).toEqual([
      { receiver_account: { agencia: '0001', conta: '7654321', tipoConta: 'PAGAMENTO' } },
      { receiver_account: null },
    ]);
  });

  it('sets a receiver account: all three fields asked for, and a refusal beside its field', async () => {
    api.on('PATCH /provider-accounts/{id}', validationFailure([{ field: 'receiver_account.agencia', message: 'agencia must be shorter than or equal to 4 characters' }]));
    render(<ProviderAccountDetail id="pa_efi" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Set receiver account' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Receiver account' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(dialog.getByText('Give the branch number.')).toBeTruthy();
    expect(dialog.getByText('Give the account number.')).toBeTruthy();
    expect(api.requests('PATCH /provider-accounts/{id}')).toHaveLength(0);

    await userEvent.type(dialog.getByLabelText('Branch (agência)'), '0001');
    await userEvent.type(dialog.getByLabelText('Account number (conta)'), '1234567');
    await userEvent.selectOptions(dialog.getByLabelText('Account type'), 'CORRENTE');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect((await dialog.findByRole('alert')).textContent).toBe('Please check: agencia must be shorter than or equal to 4 characters.');
    expect(dialog.getByLabelText('Branch (agência)').getAttribute('aria-invalid')).toBe('true');
  });

  it('deactivates the account once confirmed', async () => {
    api.on('PATCH /provider-accounts/{id}', { ...efi, active: false });
    render(<ProviderAccountDetail id="pa_efi" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Deactivate this account?' })).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByRole('button', { name: 'Reactivate' })).toBeTruthy();
    expect(api.requests('PATCH /provider-accounts/{id}').map((r) => r.body)).toEqual([{ active: false }]);
  });

  it('says when the account does not exist', async () => {
    api.on('GET /provider-accounts/{id}', new Failure(404, { code: 'NOT_FOUND', message: 'Provider account not found.' }));
    render(<ProviderAccountDetail id="pa_nope" />);
    expect((await screen.findByRole('alert')).textContent).toBe('Provider account not found.');
    expect(screen.getByRole('link', { name: 'Back to provider accounts' }).getAttribute('href')).toBe('/admin/provider-accounts');
  });
});

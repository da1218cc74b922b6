import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows, visit } from '../../test/dom';
import { accountCheck, accountHealth, daysFromNow, providerAccount, providerCatalogue, withoutHealth } from '../../test/factories';
import { Failure, useFakeApi, validationFailure } from '../../test/fake-api';
import { formatDateOnly } from '../format';
import { ProviderAccounts } from './ProviderAccounts';

const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2xpZW50\n-----END CERTIFICATE-----';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqG\n-----END PRIVATE KEY-----';
/** The first bytes of a DER PKCS#12 bundle, and their base64: the API gets the file's bytes unchanged. */
const P12_BYTES = new Uint8Array([0x30, 0x82, 0x0a, 0x51, 0x02, 0x01, 0x03, 0x30, 0x82, 0x0a, 0x17, 0xff, 0x00]);
const P12_BASE64 = 'MIIKUQIBAzCCChf/AA==';

describe('ProviderAccounts', () => {
  const api = useFakeApi();
  beforeEach(() => {
    visit('/admin/provider-accounts');
    api.on('GET /providers', providerCatalogue());
  });

  it("lists accounts with their provider's label, environment, status, certificate expiry and webhook URL", async () => {
    const efi = providerAccount({ id: 'pa_efi', name: 'A — Loja', provider: 'banco-a', environment: 'production', webhook_url: 'https://gw.example/webhooks/banco-a/pa_efi' });
    const soon = providerAccount({ id: 'pa_soon', name: 'BB', provider: 'banco-b', active: false });
    soon.credentials_summary.certificate_expires_at = daysFromNow(10.5);
    const expired = providerAccount({ id: 'pa_old', name: 'Coop', provider: 'coop' });
    expired.credentials_summary.certificate_expires_at = daysFromNow(-2);
    const none = providerAccount({ id: 'pa_none', name: 'Sem certificado', provider: 'retired' });
    none.credentials_summary.certificate_expires_at = null;
    api.on('GET /provider-accounts', [efi, soon, expired, none]);
    render(<ProviderAccounts />);
    await screen.findByRole('table', { name: 'Provider accounts' });
    const day = (iso: string | null) => formatDateOnly(iso);
    // The labels come with the catalogue, which may answer after the accounts.
    await screen.findByText('Banco A');
    const HEALTHY = 'circuit closed no failures in the last hourCheck';
    expect(tableRows('Provider accounts')).toEqual([
      ['A — Lojapa_efi', 'Banco A', 'productionactive', `${day(efi.credentials_summary.certificate_expires_at)} `, 'https://gw.example/webhooks/banco-a/pa_efiCopy', HEALTHY],
      ['BBpa_soon', 'Banco B', 'sandboxinactive', `${day(soon.credentials_summary.certificate_expires_at)} expires in 10 days`, `${soon.webhook_url}Copy`, HEALTHY],
      ['Cooppa_old', 'Cooperativa', 'sandboxactive', `${day(expired.credentials_summary.certificate_expires_at)} expired`, `${expired.webhook_url}Copy`, HEALTHY],
      // A provider the catalogue no longer lists is shown by its name.
      ['Sem certificadopa_none', 'retired', 'sandboxactive', '—', `${none.webhook_url}Copy`, HEALTHY],
    ]);
    expect(screen.getByRole('link', { name: 'BB' }).getAttribute('href')).toBe('/admin/provider-accounts/pa_soon');
  });

  it("shows each account's circuit in words and its failures of the last hour, and nothing where the gateway sends no health", async () => {
    api.on('GET /provider-accounts', [
      providerAccount({ id: 'pa_ok', name: 'Boa', health: accountHealth() }),
      providerAccount({ id: 'pa_half', name: 'Testando', health: accountHealth({ circuit: 'half_open', consecutive_failures: 5, recent_failures: 1 }) }),
      providerAccount({ id: 'pa_open', name: 'Fora', health: accountHealth({ circuit: 'open', consecutive_failures: 7, recent_failures: 12, last_error: 'timeout after 10 s' }) }),
      // An older gateway: no `health` at all.
      withoutHealth(providerAccount({ id: 'pa_old', name: 'Antiga' })),
    ]);
    render(<ProviderAccounts />);
    await screen.findByRole('table', { name: 'Provider accounts' });
    expect(tableRows('Provider accounts').map((cells) => cells[5])).toEqual([
      'circuit closed no failures in the last hourCheck',
      'circuit half-open 1 failure in the last hourCheck',
      'circuit open 12 failures in the last hourCheck',
      'Check',
    ]);
    // The state is written out; the colour only repeats it.
    const open = within(screen.getByRole('link', { name: 'Fora' }).closest('tr')!).getByText('circuit open');
    expect(open.className).toBe('badge badge-red');
    expect(open.parentElement!.getAttribute('title')).toMatch(/skip this account/);
    expect(within(screen.getByRole('link', { name: 'Testando' }).closest('tr')!).getByText('circuit half-open').className).toBe('badge badge-amber');
  });

  it('copies a webhook URL to give the PSP', async () => {
    const user = userEvent.setup();
    api.on('GET /provider-accounts', [providerAccount({ webhook_url: 'https://gw.example/webhooks/pix-api/pa_1' })]);
    render(<ProviderAccounts />);
    await user.click(await screen.findByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('https://gw.example/webhooks/pix-api/pa_1');
  });

  it('invites to add the first account when there is none', async () => {
    api.on('GET /provider-accounts', []);
    render(<ProviderAccounts />);
    expect(await screen.findByText(/No provider accounts yet/)).toBeTruthy();
  });

  it("checks one account and shows the result in its row: ok and latency, or the PSP's detail", async () => {
    api.on('GET /provider-accounts', [
      providerAccount({ id: 'pa_good', name: 'Boa' }),
      providerAccount({ id: 'pa_bad', name: 'Ruim' }),
      providerAccount({ id: 'pa_gone', name: 'Sumida' }),
    ]);
    api.on('POST /provider-accounts/{id}/check', ({ params }) =>
      params.id === 'pa_good'
        ? accountCheck({ ok: true, latency_ms: 84 })
        : params.id === 'pa_bad'
          ? accountCheck({ ok: false, latency_ms: 1203, detail: 'token request failed: HTTP 401' })
          : new Failure(404, { code: 'NOT_FOUND', message: 'Provider account not found.' }),
    );
    render(<ProviderAccounts />);
    await screen.findByRole('table');
    const row = (name: string) => screen.getByRole('link', { name }).closest('tr')!;
    await userEvent.click(within(row('Boa')).getByRole('button', { name: 'Check' }));
    await userEvent.click(within(row('Ruim')).getByRole('button', { name: 'Check' }));
    await userEvent.click(within(row('Sumida')).getByRole('button', { name: 'Check' }));
    await waitFor(() =>
      expect(tableRows().map((cells) => cells[5])).toEqual([
        'circuit closed no failures in the last hourCheckok 84 ms',
        'circuit closed no failures in the last hourCheckfailed 1203 mstoken request failed: HTTP 401',
        'circuit closed no failures in the last hourCheckProvider account not found.',
      ]),
    );
    expect(api.requests('POST /provider-accounts/{id}/check').map((r) => r.params.id)).toEqual(['pa_good', 'pa_bad', 'pa_gone']);
  });

  describe('new account', () => {
    const open = async () => {
      api.on('GET /provider-accounts', []);
      render(<ProviderAccounts />);
      // The form is built from the catalogue: the button waits for it.
      const button = screen.getByRole('button', { name: 'New account' });
      await waitFor(() => expect(button).toHaveProperty('disabled', false));
      await userEvent.click(button);
      return within(screen.getByRole('dialog', { name: 'New provider account' }));
    };
    const file = (parts: BlobPart[], name: string) => new File(parts, name, { type: 'application/octet-stream' });

    it('checks the form before sending it: the provider first, then what that provider needs', async () => {
      const dialog = await open();
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      expect(dialog.getByText('Give the account a name.')).toBeTruthy();
      expect(dialog.getByText('Choose the PSP this account is at.')).toBeTruthy();
      expect(dialog.queryByLabelText('Client ID')).toBeNull();

      await userEvent.selectOptions(dialog.getByLabelText('Provider'), 'pix-api');
      await userEvent.type(dialog.getByLabelText('Token URL'), 'http://psp.example/token');
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      expect(dialog.getByText('Required: the gateway knows no API base URL of Pix API for sandbox.')).toBeTruthy();
      expect(dialog.getByText('Enter a full https:// address.')).toBeTruthy();
      expect(dialog.getByText('Give the Pix key payments are made to.')).toBeTruthy();
      expect(dialog.getByText('Give the client ID.')).toBeTruthy();
      expect(dialog.getByText('Paste the certificate, or load its file.')).toBeTruthy();
      expect(api.requests('POST /provider-accounts')).toHaveLength(0);
    });

    it("creates an account from PEM files, with the bank's own field, then opens it", async () => {
      api.on('POST /provider-accounts', ({ body }) => providerAccount({ id: 'pa_new', name: body.name, provider: body.provider }));
      const dialog = await open();
      await userEvent.type(dialog.getByLabelText('Name'), ' BB — Loja ');
      await userEvent.selectOptions(dialog.getByLabelText('Provider'), 'banco-a');
      // The provider's documented hosts are the placeholders of the fields that override them.
      expect(dialog.getByLabelText('API base URL').getAttribute('placeholder')).toBe('https://pix-h.banco-a.example/v2');
      await userEvent.selectOptions(dialog.getByLabelText('Environment'), 'production');
      expect(dialog.getByLabelText('API base URL').getAttribute('placeholder')).toBe('https://pix.banco-a.example/v2');
      expect(dialog.getByLabelText('Token URL').getAttribute('placeholder')).toBe('https://pix.banco-a.example/v2/oauth/token');
      await userEvent.type(dialog.getByLabelText('Pix key'), '12345678000195');
      await userEvent.type(dialog.getByLabelText('Client ID'), 'client-1');
      await userEvent.type(dialog.getByLabelText('Client secret'), 'secret-1');
      // One .pem holding the certificate and the key fills both fields.
      await userEvent.upload(dialog.getByLabelText('Load the certificate from a file'), file([`${CERTIFICATE}\n${KEY}\n`], 'client.pem'));
      expect(await dialog.findByText('Loaded: client.pem')).toBeTruthy();
      expect(dialog.getByLabelText('Private key (PEM)')).toHaveProperty('value', KEY);
      expect(dialog.getByLabelText('Certificate (PEM)')).toHaveProperty('value', CERTIFICATE);
      await userEvent.upload(dialog.getByLabelText('Load the CA certificates from a file'), file([`${CERTIFICATE}\n`], 'ca.crt'));
      await waitFor(() => expect(dialog.getByLabelText('CA certificates (PEM, optional)')).toHaveProperty('value', CERTIFICATE));
      await userEvent.type(dialog.getByLabelText('Application key'), 'app-key-1');
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      await waitFor(() => expect(location.pathname).toBe('/admin/provider-accounts/pa_new'));
      expect(api.requests('POST /provider-accounts')[0]!.body).toEqual({
        name: 'BB — Loja',
        provider: 'banco-a',
        environment: 'production',
        pix_key: '12345678000195',
        credentials: { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: CERTIFICATE, private_key_pem: KEY, ca_pem: CERTIFICATE, app_key: 'app-key-1' },
      });
    });

    it('creates an account from a .p12 bundle read as base64, with its password', async () => {
      api.on('POST /provider-accounts', providerAccount({ id: 'pa_p12' }));
      const dialog = await open();
      await userEvent.type(dialog.getByLabelText('Name'), 'Banco B');
      await userEvent.selectOptions(dialog.getByLabelText('Provider'), 'banco-b');
      await userEvent.type(dialog.getByLabelText('Pix key'), 'chave@example.com');
      await userEvent.type(dialog.getByLabelText('Client ID'), 'Client_Id_1');
      await userEvent.type(dialog.getByLabelText('Client secret'), 'Client_Secret_1');
      await userEvent.click(dialog.getByRole('radio', { name: 'PKCS#12 bundle (.p12, .pfx)' }));
      expect(dialog.queryByLabelText('Certificate (PEM)')).toBeNull();
      await userEvent.upload(dialog.getByLabelText('PKCS#12 file'), file([P12_BYTES], 'producao-123.p12'));
      expect(await dialog.findByText('Loaded: producao-123.p12')).toBeTruthy();
      await userEvent.type(dialog.getByLabelText('Bundle password (optional)'), 'senha');
      await userEvent.click(dialog.getByRole('checkbox', { name: 'Skip the checks' }));
      await userEvent.type(dialog.getByLabelText('Token URL'), 'https://pix-h.example/oauth/token');
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      await waitFor(() => expect(location.pathname).toBe('/admin/provider-accounts/pa_p12'));
      expect(api.requests('POST /provider-accounts')[0]!.body).toEqual({
        name: 'Banco B',
        provider: 'banco-b',
        environment: 'sandbox',
        token_url: 'https://pix-h.example/oauth/token',
        pix_key: 'chave@example.com',
        credentials: { client_id: 'Client_Id_1', client_secret: 'Client_Secret_1', pkcs12_base64: P12_BASE64, pkcs12_password: 'senha', skip_checks: true },
      });
    });

    it('asks a provider with one environment and one secret for those only', async () => {
      api.on('POST /provider-accounts', providerAccount({ id: 'pa_sim', provider: 'simulated' }));
      const dialog = await open();
      await userEvent.type(dialog.getByLabelText('Name'), 'Simulada');
      await userEvent.selectOptions(dialog.getByLabelText('Environment'), 'production');
      await userEvent.selectOptions(dialog.getByLabelText('Provider'), 'simulated');
      expect([...dialog.getByLabelText<HTMLSelectElement>('Environment').options].map((o) => o.value)).toEqual(['sandbox']);
      expect(dialog.getByLabelText<HTMLSelectElement>('Environment').value).toBe('sandbox');
      expect(dialog.queryByLabelText('Pix key')).toBeNull();
      expect(dialog.queryByLabelText('Client ID')).toBeNull();
      expect(dialog.getByLabelText('Sandbox URL').getAttribute('placeholder')).toBe('http://127.0.0.1:3000/sandbox');
      await userEvent.type(dialog.getByLabelText('Webhook secret (optional)'), 'a-secret-of-24-characters');
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      await waitFor(() => expect(location.pathname).toBe('/admin/provider-accounts/pa_sim'));
      expect(api.requests('POST /provider-accounts')[0]!.body).toEqual({
        name: 'Simulada',
        provider: 'simulated',
        environment: 'sandbox',
        credentials: { webhook_secret: 'a-secret-of-24-characters' },
      });
    });

    it('builds a Mercado Pago account from its catalogue entry: two secrets, no Pix key, no certificate', async () => {
      api.on('POST /provider-accounts', ({ body }) =>
        providerAccount({
          id: 'pa_mp',
          name: body.name,
          provider: body.provider,
          environment: body.environment,
          base_url: null,
          token_url: null,
          pix_key: null,
          credentials_summary: { client_id: null, certificate_subject: null, certificate_expires_at: null },
        }),
      );
      const dialog = await open();
      await userEvent.type(dialog.getByLabelText('Name'), 'Mercado Pago — Loja');
      await userEvent.selectOptions(dialog.getByLabelText('Provider'), 'mercadopago');
      expect([...dialog.getByLabelText<HTMLSelectElement>('Environment').options].map((o) => o.value)).toEqual(['sandbox', 'production']);
      expect(dialog.queryByLabelText('Pix key')).toBeNull();
      expect(dialog.queryByLabelText('Token URL')).toBeNull();
      expect(dialog.queryByLabelText('Client ID')).toBeNull();
      expect(dialog.queryByRole('group', { name: 'Client certificate' })).toBeNull();
      expect(dialog.queryByText(/certificate/i)).toBeNull();
      expect(dialog.getByLabelText('API base URL').getAttribute('placeholder')).toBe('https://api.mercadopago.com');
      // Both credentials are secrets: typed into password fields, never echoed.
      expect(dialog.getByLabelText('Access token').getAttribute('type')).toBe('password');
      expect(dialog.getByLabelText('Webhook secret').getAttribute('type')).toBe('password');
      expect(dialog.getByText('The credentials are checked, then stored encrypted. The gateway never shows them again.')).toBeTruthy();

      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      expect(dialog.getByText('Give the access token.')).toBeTruthy();
      expect(dialog.getByText('Give the webhook secret.')).toBeTruthy();
      expect(api.requests('POST /provider-accounts')).toHaveLength(0);

      await userEvent.selectOptions(dialog.getByLabelText('Environment'), 'production');
      await userEvent.type(dialog.getByLabelText('Access token'), 'APP_USR-1234-abcd');
      await userEvent.type(dialog.getByLabelText('Webhook secret'), 'mp-webhook-secret-1');
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      await waitFor(() => expect(location.pathname).toBe('/admin/provider-accounts/pa_mp'));
      expect(api.requests('POST /provider-accounts')[0]!.body).toEqual({
        name: 'Mercado Pago — Loja',
        provider: 'mercadopago',
        environment: 'production',
        credentials: { access_token: 'APP_USR-1234-abcd', webhook_secret: 'mp-webhook-secret-1' },
      });
    });

    it('creates an account with its receiver account for recurring Pix, once all three of its fields are given', async () => {
      api.on('POST /provider-accounts', providerAccount({ id: 'pa_rec' }));
      const dialog = await open();
      await userEvent.type(dialog.getByLabelText('Name'), 'Simulada');
      await userEvent.selectOptions(dialog.getByLabelText('Provider'), 'simulated');
      expect(dialog.getByRole('group', { name: 'Receiver account for recurring Pix (optional)' })).toBeTruthy();
      await userEvent.type(dialog.getByLabelText('Account number (conta)'), ' 1234567 ');
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      expect(dialog.getByText('Give the branch number.')).toBeTruthy();
      expect(dialog.getByText('Choose the account type.')).toBeTruthy();
      expect(api.requests('POST /provider-accounts')).toHaveLength(0);

      await userEvent.type(dialog.getByLabelText('Branch (agência)'), '0001');
      await userEvent.selectOptions(dialog.getByLabelText('Account type'), 'CORRENTE');
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      await waitFor(() => expect(location.pathname).toBe('/admin/provider-accounts/pa_rec'));
      expect(api.requests('POST /provider-accounts')[0]!.body).toEqual({
        name: 'Simulada',
        provider: 'simulated',
        environment: 'sandbox',
        credentials: {},
        receiver_account: { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' },
      });
    });

    it("places the API's refusal of a receiver account field beside it", async () => {
      api.on('POST /provider-accounts', validationFailure([{ field: 'receiver_account.conta', message: 'conta must be longer than or equal to 1 characters' }]));
      const dialog = await open();
      await userEvent.type(dialog.getByLabelText('Name'), 'Simulada');
      await userEvent.selectOptions(dialog.getByLabelText('Provider'), 'simulated');
      await userEvent.type(dialog.getByLabelText('Branch (agência)'), '0001');
      await userEvent.type(dialog.getByLabelText('Account number (conta)'), '1');
      await userEvent.selectOptions(dialog.getByLabelText('Account type'), 'POUPANCA');
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      expect((await dialog.findByRole('alert')).textContent).toBe('Please check: conta must be longer than or equal to 1 characters.');
      const conta = dialog.getByLabelText('Account number (conta)');
      expect(conta.getAttribute('aria-invalid')).toBe('true');
      expect(conta.closest('.field')!.querySelector('.field-error')!.textContent).toBe('conta must be longer than or equal to 1 characters');
    });

    it('offers no new account while the list of providers cannot be read', async () => {
      api.on('GET /providers', new Failure(500, { code: 'INTERNAL_ERROR', message: 'Something went wrong.' }));
      api.on('GET /provider-accounts', []);
      render(<ProviderAccounts />);
      expect((await screen.findByText(/The list of providers could not be read/)).textContent).toContain('no account can be created');
      expect(screen.getByRole('button', { name: 'New account' })).toHaveProperty('disabled', true);
    });

    it("places the API's refusals beside the credentials fields they are about, and keeps the form", async () => {
      api.on(
        'POST /provider-accounts',
        validationFailure([
          { field: 'credentials.certificate_pem', message: 'holds a certificate that expired on 2024-01-01T00:00:00.000Z' },
          { field: 'credentials.private_key_pem', message: 'does not match the certificate (the first one of certificate_pem)' },
          { field: 'pix_key', message: 'pix_key must be shorter than or equal to 77 characters' },
        ]),
      );
      const dialog = await open();
      await userEvent.type(dialog.getByLabelText('Name'), 'Coop');
      await userEvent.selectOptions(dialog.getByLabelText('Provider'), 'coop');
      await userEvent.selectOptions(dialog.getByLabelText('Environment'), 'production');
      expect(dialog.queryByLabelText('Client secret')).toBeNull();
      await userEvent.type(dialog.getByLabelText('Pix key'), 'chave');
      await userEvent.type(dialog.getByLabelText('Client ID'), 'client-1');
      await userEvent.click(dialog.getByLabelText('Certificate (PEM)'));
      await userEvent.paste(CERTIFICATE);
      await userEvent.click(dialog.getByLabelText('Private key (PEM)'));
      await userEvent.paste(KEY);
      await userEvent.click(dialog.getByRole('button', { name: 'Create account' }));
      expect((await dialog.findByRole('alert')).textContent).toBe(
        'Please check: certificate_pem holds a certificate that expired on 2024-01-01T00:00:00.000Z; private_key_pem does not match the certificate (the first one of certificate_pem); pix_key must be shorter than or equal to 77 characters.',
      );
      const certificate = dialog.getByLabelText('Certificate (PEM)');
      expect(certificate.getAttribute('aria-invalid')).toBe('true');
      expect(certificate.closest('.field')!.querySelector('.field-error')!.textContent).toBe('certificate_pem holds a certificate that expired on 2024-01-01T00:00:00.000Z');
      expect(dialog.getByLabelText('Private key (PEM)').closest('.field')!.querySelector('.field-error')!.textContent).toBe(
        'private_key_pem does not match the certificate (the first one of certificate_pem)',
      );
      expect(dialog.getByLabelText('Pix key').closest('.field')!.querySelector('.field-error')!.textContent).toBe('pix_key must be shorter than or equal to 77 characters');
      expect(dialog.getByLabelText('Certificate (PEM)')).toHaveProperty('value', CERTIFICATE);
      expect(api.requests('POST /provider-accounts')[0]!.body.credentials).toEqual({ client_id: 'client-1', certificate_pem: CERTIFICATE, private_key_pem: KEY });
    });
  });
});

import { render, screen } from '@testing-library/react';
import { daysFromNow } from '../../test/factories';
import { ApiError } from '../api';
import {
  AccountValues,
  apiErrors,
  CertificateExpiry,
  certificateExpiry,
  credentialsBody,
  CredentialValues,
  emptyCredentials,
  failureText,
  providerLabel,
  providerOption,
  PROVIDERS,
  readFile,
  splitPem,
  validateAccount,
  validateCredentials,
} from './provider-account-form';

const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2xpZW50\n-----END CERTIFICATE-----';
const CHAIN = '-----BEGIN CERTIFICATE-----\nMIIBtDCCAVqgAwIBAgIUSW50ZXI=\n-----END CERTIFICATE-----';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqG\n-----END PRIVATE KEY-----';

const option = (name: string) => providerOption(name)!;
const account = (overrides: Partial<AccountValues> = {}): AccountValues => ({
  name: 'Banco Teste',
  provider: 'efi',
  environment: 'sandbox',
  base_url: '',
  token_url: '',
  pix_key: 'chave@example.com',
  ...overrides,
});
const pem = (overrides: Partial<CredentialValues> = {}): CredentialValues => ({
  ...emptyCredentials(),
  client_id: 'client-1',
  client_secret: 'secret-1',
  certificate_pem: CERTIFICATE,
  private_key_pem: KEY,
  ...overrides,
});

describe('providers', () => {
  it('offers the Pix API family, each by the name the API takes', () => {
    expect(PROVIDERS.map((p) => p.name)).toEqual(['pix-api', 'efi', 'sicoob', 'bb', 'itau', 'inter', 'santander', 'sicredi']);
    expect(providerLabel('bb')).toBe('Banco do Brasil');
    expect(providerLabel('pix-api')).toBe('Pix API');
    expect(providerLabel('someday')).toBe('someday');
  });
});

describe('validateAccount', () => {
  it('accepts a bank whose hosts the gateway knows, without URLs', () => {
    expect(validateAccount(account(), option('efi'))).toEqual({});
  });

  it('wants base_url and token_url where the gateway knows no host: always for pix-api, in sandbox for Itaú and Sicoob', () => {
    expect(Object.keys(validateAccount(account({ provider: 'pix-api', environment: 'production' }), option('pix-api')))).toEqual(['base_url', 'token_url']);
    expect(Object.keys(validateAccount(account({ provider: 'itau' }), option('itau')))).toEqual(['base_url', 'token_url']);
    expect(validateAccount(account({ provider: 'itau', environment: 'production' }), option('itau'))).toEqual({});
    expect(
      validateAccount(account({ provider: 'sicoob', base_url: 'https://sandbox.sicoob.example/pix', token_url: 'https://sandbox.sicoob.example/token' }), option('sicoob')),
    ).toEqual({});
  });

  it('wants https addresses, a name, a Pix key and a provider', () => {
    const errors = validateAccount(account({ name: ' ', pix_key: '', base_url: 'http://psp.example', token_url: 'psp.example/token' }), undefined);
    expect(errors).toEqual({
      name: 'Give the account a name.',
      provider: 'Choose the PSP this account is at.',
      base_url: 'Enter a full https:// address: the PSP is reached over mutual TLS.',
      token_url: 'Enter a full https:// address: the PSP is reached over mutual TLS.',
      pix_key: 'Give the Pix key payments are made to.',
    });
  });

  it("leaves an existing account's provider, and the rules of one it does not know, to the API", () => {
    expect(validateAccount(account({ provider: 'someday', pix_key: '' }), undefined, true)).toEqual({});
  });
});

describe('validateCredentials', () => {
  it('accepts a PEM pair, or a loaded bundle', () => {
    expect(validateCredentials(pem(), option('efi'))).toEqual({});
    expect(validateCredentials(pem({ mode: 'pkcs12', certificate_pem: '', private_key_pem: '', pkcs12_base64: 'MIIK' }), option('efi'))).toEqual({});
  });

  it('names each missing or malformed field as the API does', () => {
    expect(validateCredentials(pem({ client_id: '', client_secret: '', certificate_pem: 'not a certificate', private_key_pem: '' }), option('bb'))).toEqual({
      'credentials.client_id': 'Give the client id the PSP issued.',
      'credentials.client_secret': 'Give the client secret the PSP issued.',
      'credentials.certificate_pem': 'This is not a PEM certificate: it has no BEGIN CERTIFICATE line.',
      'credentials.private_key_pem': 'Paste the private key, or load its file.',
      'credentials.app_key': 'Give the application key.',
    });
    expect(validateCredentials(pem({ mode: 'pkcs12' }), option('efi'))).toEqual({ 'credentials.pkcs12_base64': 'Choose the .p12 or .pfx file the PSP issued.' });
  });

  it('asks Sicoob for no client secret', () => {
    expect(validateCredentials(pem({ client_secret: '' }), option('sicoob'))).toEqual({});
  });
});

describe('credentialsBody', () => {
  it("sends the chosen certificate form only, and the provider's own extras only", () => {
    const values = pem({ ca_pem: `  ${CHAIN}\n`, pkcs12_base64: 'MIIK', extras: { app_key: ' app-1 ', conta_corrente: '123', skip_mtls_checking: true } });
    expect(credentialsBody(values, option('bb'))).toEqual({
      client_id: 'client-1',
      client_secret: 'secret-1',
      certificate_pem: CERTIFICATE,
      private_key_pem: KEY,
      ca_pem: CHAIN,
      app_key: 'app-1',
    });
    expect(credentialsBody({ ...values, mode: 'pkcs12', pkcs12_password: '' }, option('efi'))).toEqual({
      client_id: 'client-1',
      client_secret: 'secret-1',
      pkcs12_base64: 'MIIK',
      ca_pem: CHAIN,
      skip_mtls_checking: true,
    });
    expect(credentialsBody({ ...values, extras: {} }, option('sicoob'))).toEqual({ client_id: 'client-1', certificate_pem: CERTIFICATE, private_key_pem: KEY, ca_pem: CHAIN });
  });
});

describe("the API's refusals", () => {
  const refusal = new ApiError(400, 'VALIDATION_ERROR', 'Please check: is required.', [
    { field: 'credentials.client_secret', message: 'is required' },
    { field: 'base_url', message: 'base_url must be an https URL' },
  ]);

  it('name the field each problem is about, beside it and in the summary', () => {
    expect(apiErrors(refusal)).toEqual({ 'credentials.client_secret': 'client_secret is required', base_url: 'base_url must be an https URL' });
    expect(failureText(refusal)).toBe('Please check: client_secret is required; base_url must be an https URL.');
  });

  it('say anything else in the words the API client found', () => {
    const upstream = new ApiError(502, 'UPSTREAM_ERROR', 'The payment provider did not accept this (it answered 500): Erro.');
    expect(apiErrors(upstream)).toEqual({});
    expect(failureText(upstream)).toBe('The payment provider did not accept this (it answered 500): Erro.');
  });
});

describe('files', () => {
  it('separates the certificates from the key of one .pem', () => {
    expect(splitPem(`Bag Attributes\n${CERTIFICATE}\n${KEY}\n${CHAIN}\n`)).toEqual({ certificates: `${CERTIFICATE}\n${CHAIN}`, key: KEY });
    expect(splitPem('not PEM')).toEqual({ certificates: '', key: '' });
  });

  it('reads a file as text, or as the base64 of its bytes', async () => {
    expect(await readFile(new File([CERTIFICATE], 'client.crt'), 'text')).toBe(CERTIFICATE);
    expect(await readFile(new File([new Uint8Array([0, 1, 2, 253, 254, 255])], 'bundle.p12'), 'base64')).toBe('AAEC/f7/');
  });
});

describe('certificate expiry', () => {
  const now = Date.parse('2024-05-02T12:00:00.000Z');

  it('warns within 30 days of the end, and once it is past', () => {
    expect(certificateExpiry('2024-07-02T12:00:00.000Z', now)).toEqual({ days: 61, state: 'ok' });
    expect(certificateExpiry('2024-06-01T12:00:00.000Z', now)).toEqual({ days: 30, state: 'soon' });
    expect(certificateExpiry('2024-05-02T18:00:00.000Z', now)).toEqual({ days: 0, state: 'soon' });
    expect(certificateExpiry('2024-05-02T12:00:00.000Z', now).state).toBe('expired');
    expect(certificateExpiry('2024-04-01T12:00:00.000Z', now).state).toBe('expired');
  });

  it('shows the date, with a badge only when it calls for one', () => {
    render(
      <>
        <CertificateExpiry iso={daysFromNow(90)} />
        <CertificateExpiry iso={daysFromNow(1.5)} />
        <CertificateExpiry iso={daysFromNow(0.5)} />
        <CertificateExpiry iso={daysFromNow(-1)} />
        <CertificateExpiry iso={null} />
      </>,
    );
    expect(screen.getByText('expires in 1 day')).toBeTruthy();
    expect(screen.getByText('expires today')).toBeTruthy();
    expect(screen.getByText('expired')).toBeTruthy();
    expect(screen.getByText('—')).toBeTruthy();
    expect(document.querySelectorAll('.badge')).toHaveLength(3);
  });
});

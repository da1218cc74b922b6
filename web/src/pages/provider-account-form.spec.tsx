import { render, screen } from '@testing-library/react';
import { daysFromNow, providerCatalogue } from '../../test/factories';
import { ApiError } from '../api';
import {
  AccountValues,
  apiErrors,
  CertificateExpiry,
  certificateExpiry,
  credentialsBody,
  CredentialValues,
  EnvironmentBadge,
  failureText,
  fieldsInUse,
  findProvider,
  providerLabel,
  readFile,
  splitPem,
  validateAccount,
  validateCredentials,
} from './provider-account-form';

const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2xpZW50\n-----END CERTIFICATE-----';
const CHAIN = '-----BEGIN CERTIFICATE-----\nMIIBtDCCAVqgAwIBAgIUSW50ZXI=\n-----END CERTIFICATE-----';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqG\n-----END PRIVATE KEY-----';

const catalogue = providerCatalogue();
const provider = (name: string) => findProvider(catalogue, name)!;
const account = (overrides: Partial<AccountValues> = {}): AccountValues => ({
  name: 'Banco Teste',
  provider: 'banco-b',
  environment: 'sandbox',
  base_url: '',
  token_url: '',
  pix_key: 'chave@example.com',
  ...overrides,
});
const pem = (fields: Record<string, string | boolean> = {}, choice: Record<string, string> = {}): CredentialValues => ({
  choice,
  files: {},
  fields: { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: CERTIFICATE, private_key_pem: KEY, ...fields },
});

describe('the catalogue', () => {
  it('labels providers as they describe themselves, by name until it knows them', () => {
    expect(providerLabel(catalogue, 'banco-a')).toBe('Banco A');
    expect(providerLabel(catalogue, 'someday')).toBe('someday');
    expect(providerLabel(undefined, 'banco-a')).toBe('banco-a');
  });

  it("uses the fields outside every alternative, and the chosen option's (the first until another is chosen)", () => {
    const names = (values: CredentialValues) => fieldsInUse(provider('banco-a'), values).map((field) => field.name);
    expect(names(pem())).toEqual(['client_id', 'client_secret', 'certificate_pem', 'private_key_pem', 'ca_pem', 'app_key']);
    expect(names(pem({}, { certificate: 'pkcs12' }))).toEqual(['client_id', 'client_secret', 'pkcs12_base64', 'pkcs12_password', 'ca_pem', 'app_key']);
    expect(names(pem())).not.toContain('webhook_secret');
  });
});

describe('validateAccount', () => {
  it('accepts a provider whose hosts the catalogue gives, without URLs', () => {
    expect(validateAccount(account(), provider('banco-b'))).toEqual({});
  });

  it('wants base_url and token_url where the provider knows no host: always for one without hosts, in sandbox for one without homologation hosts', () => {
    expect(Object.keys(validateAccount(account({ provider: 'pix-api', environment: 'production' }), provider('pix-api')))).toEqual(['base_url', 'token_url']);
    expect(validateAccount(account({ provider: 'coop' }), provider('coop'))).toEqual({
      base_url: 'Required: the gateway knows no API base URL of Cooperativa for sandbox.',
      token_url: 'Required: the gateway knows no token URL of Cooperativa for sandbox.',
    });
    expect(validateAccount(account({ provider: 'coop', environment: 'production' }), provider('coop'))).toEqual({});
    expect(validateAccount(account({ provider: 'coop', base_url: 'https://sandbox.coop.example/pix', token_url: 'https://sandbox.coop.example/token' }), provider('coop'))).toEqual(
      {},
    );
  });

  it('wants https addresses, a name, a Pix key and a provider', () => {
    expect(validateAccount(account({ name: ' ' }), undefined)).toEqual({ name: 'Give the account a name.', provider: 'Choose the PSP this account is at.' });
    expect(validateAccount(account({ pix_key: '', base_url: 'http://psp.example', token_url: 'psp.example/token' }), provider('banco-b'))).toEqual({
      base_url: 'Enter a full https:// address.',
      token_url: 'Enter a full https:// address.',
      pix_key: 'Give the Pix key payments are made to.',
    });
  });

  it('asks only for the settings the provider takes, in the environments it has', () => {
    expect(validateAccount(account({ provider: 'simulated', pix_key: '' }), provider('simulated'))).toEqual({});
    expect(validateAccount(account({ provider: 'simulated', environment: 'production' }), provider('simulated'))).toEqual({
      environment: 'Simulated PSP has no production environment.',
    });
  });

  it("leaves an existing account's provider, and the rules of one it does not know, to the API", () => {
    expect(validateAccount(account({ provider: 'someday', pix_key: '' }), undefined, true)).toEqual({});
  });
});

describe('validateCredentials', () => {
  it('accepts a PEM pair, or a loaded bundle', () => {
    expect(validateCredentials(pem(), provider('banco-b'))).toEqual({});
    expect(validateCredentials(pem({ certificate_pem: '', private_key_pem: '', pkcs12_base64: 'MIIK' }, { certificate: 'pkcs12' }), provider('banco-b'))).toEqual({});
  });

  it('names each missing or malformed field as the API does, in words taken from the catalogue', () => {
    expect(validateCredentials(pem({ client_id: '', client_secret: '', certificate_pem: 'not a certificate', private_key_pem: '' }), provider('banco-a'))).toEqual({
      'credentials.client_id': 'Give the client ID.',
      'credentials.client_secret': 'Give the client secret.',
      'credentials.certificate_pem': 'This is not a PEM certificate: it has no BEGIN CERTIFICATE line.',
      'credentials.private_key_pem': 'Paste the private key, or load its file.',
      'credentials.app_key': 'Give the application key.',
    });
    expect(validateCredentials(pem({ private_key_pem: CERTIFICATE, ca_pem: KEY }), provider('banco-b'))).toEqual({
      'credentials.private_key_pem': 'This is not a PEM private key: it has no BEGIN PRIVATE KEY line.',
      'credentials.ca_pem': 'This is not a PEM certificate: it has no BEGIN CERTIFICATE line.',
    });
    expect(validateCredentials(pem({}, { certificate: 'pkcs12' }), provider('banco-b'))).toEqual({ 'credentials.pkcs12_base64': 'Choose the PKCS#12 file to load.' });
  });

  it('asks for no client secret where the provider takes none', () => {
    expect(validateCredentials(pem({ client_secret: '' }), provider('coop'))).toEqual({});
  });
});

describe('credentialsBody', () => {
  it("sends the chosen certificate form only, and the provider's own fields only", () => {
    const values = pem({ ca_pem: `  ${CHAIN}\n`, pkcs12_base64: 'MIIK', app_key: ' app-1 ', branch: '123', skip_checks: true });
    expect(credentialsBody(values, provider('banco-a'))).toEqual({
      client_id: 'client-1',
      client_secret: 'secret-1',
      certificate_pem: CERTIFICATE,
      private_key_pem: KEY,
      ca_pem: CHAIN,
      app_key: 'app-1',
    });
    expect(credentialsBody({ ...values, choice: { certificate: 'pkcs12' } }, provider('banco-b'))).toEqual({
      client_id: 'client-1',
      client_secret: 'secret-1',
      pkcs12_base64: 'MIIK',
      ca_pem: CHAIN,
      skip_checks: true,
      branch: '123',
    });
    expect(credentialsBody(values, provider('coop'))).toEqual({ client_id: 'client-1', certificate_pem: CERTIFICATE, private_key_pem: KEY, ca_pem: CHAIN });
    // A secret is sent as typed; an unchecked boolean not at all.
    expect(credentialsBody({ choice: {}, files: {}, fields: { webhook_secret: ' with spaces ' } }, provider('simulated'))).toEqual({ webhook_secret: ' with spaces ' });
    expect(credentialsBody({ ...values, fields: { ...values.fields, skip_checks: false } }, provider('banco-b'))).not.toHaveProperty('skip_checks');
  });
});

describe('environments', () => {
  it("shows sandbox and production apart, and a payment's only when it carries one", () => {
    render(
      <>
        <EnvironmentBadge environment="sandbox" />
        <EnvironmentBadge environment="production" />
      </>,
    );
    expect(screen.getByText('sandbox').className).toBe('badge badge-env badge-env-sandbox');
    expect(screen.getByText('production').className).toBe('badge badge-env badge-env-production');
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

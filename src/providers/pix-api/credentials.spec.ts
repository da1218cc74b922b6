import { createPrivateKey } from 'node:crypto';
import forge from 'node-forge';
import { testPki } from '../../testing/certificates';
import { CredentialsError } from '../provider-adapter';
import { BB } from './banks/bb';
import { EFI } from './banks/efi';
import { SICOOB } from './banks/sicoob';
import { parsePixApiCredentials, summarizePixApiCredentials } from './credentials';
import { PIX_API } from './profile';
import type { PixApiProfile } from './profile';

const pki = testPki();
const NOW = new Date();
const SECRET = 'client-secret-that-must-not-leak';

const pem = (overrides: Record<string, unknown> = {}) => ({
  client_id: 'client-1',
  client_secret: SECRET,
  certificate_pem: pki.client.cert,
  private_key_pem: pki.client.key,
  ...overrides,
});

const p12 = (overrides: Record<string, unknown> = {}) => ({
  client_id: 'client-1',
  client_secret: SECRET,
  pkcs12_base64: pki.clientP12.base64,
  pkcs12_password: pki.clientP12.password,
  ...overrides,
});

/** The CredentialsError `parse` throws, or a failure saying it threw none. */
function refusal(input: unknown, profile: PixApiProfile = PIX_API, now = NOW): CredentialsError {
  try {
    parsePixApiCredentials(input, profile, now);
  } catch (error) {
    if (error instanceof CredentialsError) return error;
    throw error;
  }
  throw new Error('expected a CredentialsError');
}

/** A bundle as other tools make it: 3DES, with an empty password and the like. */
function bundle(password: string | null, algorithm: '3des' | 'aes256' = '3des'): string {
  const key = forge.pki.privateKeyFromPem(pki.client.key);
  const certs = [forge.pki.certificateFromPem(pki.client.cert), forge.pki.certificateFromPem(pki.ca.cert)];
  return forge.util.encode64(forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, certs, password, { algorithm })).getBytes());
}

describe('parsePixApiCredentials', () => {
  describe('PEM', () => {
    it('takes a certificate and its key, and says whose and until when', () => {
      const credentials = parsePixApiCredentials(pem(), PIX_API, NOW);
      expect(credentials).toMatchObject({ clientId: 'client-1', clientSecret: SECRET, extras: {} });
      expect(credentials.certificate.subject).toBe('CN=pix-gateway-client, O=Pix Gateway Tests, C=BR');
      expect(new Date(credentials.certificate.expiresAt).getTime()).toBeGreaterThan(NOW.getTime());
      expect(credentials.tls.certificatePem).toContain('BEGIN CERTIFICATE');
      expect(createPrivateKey(credentials.tls.privateKeyPem).asymmetricKeyType).toBe('rsa');
      expect(credentials.tls.caPem).toBeNull();
    });

    it('summarises without anything secret', () => {
      const summary = summarizePixApiCredentials(parsePixApiCredentials(pem(), PIX_API, NOW));
      expect(summary).toEqual({
        clientId: 'client-1',
        certificateSubject: 'CN=pix-gateway-client, O=Pix Gateway Tests, C=BR',
        certificateExpiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(JSON.stringify(summary)).not.toContain(SECRET);
      expect(JSON.stringify(summary)).not.toContain('PRIVATE KEY');
    });

    it('takes a chain after the certificate and an extra CA', () => {
      const credentials = parsePixApiCredentials(pem({ certificate_pem: pki.client.cert + pki.ca.cert, ca_pem: pki.ca.cert }), PIX_API, NOW);
      expect(credentials.tls.certificatePem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
      expect(credentials.tls.caPem).toContain('BEGIN CERTIFICATE');
    });

    it('takes PEM pasted with literal \\n sequences', () => {
      const escaped = (text: string) => text.replace(/\n/g, '\\n');
      expect(parsePixApiCredentials(pem({ certificate_pem: escaped(pki.client.cert), private_key_pem: escaped(pki.client.key) }), PIX_API, NOW).clientId).toBe('client-1');
    });

    it.each([
      ['a PEM that does not parse', { certificate_pem: 'not a certificate' }, 'credentials.certificate_pem'],
      ['a certificate block with garbage inside', { certificate_pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }, 'credentials.certificate_pem'],
      ['a key that does not parse', { private_key_pem: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' }, 'credentials.private_key_pem'],
      ['no key at all', { private_key_pem: 'hello' }, 'credentials.private_key_pem'],
      ['a key that does not match its certificate', { certificate_pem: pki.mismatchedClient.cert, private_key_pem: pki.mismatchedClient.key }, 'credentials.private_key_pem'],
      ['an expired certificate', { certificate_pem: pki.expiredClient.cert, private_key_pem: pki.expiredClient.key }, 'credentials.certificate_pem'],
      ['a CA that does not parse', { ca_pem: 'nope' }, 'credentials.ca_pem'],
      ['a missing client_id', { client_id: undefined }, 'credentials.client_id'],
      ['a missing client_secret', { client_secret: undefined }, 'credentials.client_secret'],
      ['a client_id that is not a string', { client_id: 42 }, 'credentials.client_id'],
      ['a missing private key', { private_key_pem: undefined }, 'credentials.private_key_pem'],
      ['no certificate at all', { certificate_pem: undefined, private_key_pem: undefined }, 'credentials.certificate_pem'],
      ['PEM and PKCS#12 both', { pkcs12_base64: pki.clientP12.base64 }, 'credentials.pkcs12_base64'],
      ['a field no profile has', { client_scret: 'typo' }, 'credentials.client_scret'],
    ])('refuses %s, naming the field', (_, overrides, field) => {
      const error = refusal(pem(overrides));
      expect(error.field).toBe(field);
      expect(error.message).not.toContain(SECRET);
      expect(error.message).not.toContain('PRIVATE KEY-----\n');
    });

    it('refuses an encrypted key, asking for it without a passphrase', () => {
      const encrypted = createPrivateKey(pki.client.key).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }) as string;
      expect(refusal(pem({ private_key_pem: encrypted }))).toMatchObject({ field: 'credentials.private_key_pem', message: expect.stringMatching(/passphrase/) });
    });

    it("refuses a certificate that is not valid yet at the clock's now", () => {
      const lastYear = new Date(NOW.getTime() - 365 * 24 * 3600 * 1000);
      expect(refusal(pem(), PIX_API, lastYear)).toMatchObject({ field: 'credentials.certificate_pem', message: expect.stringMatching(/valid only from/) });
    });

    it('refuses what is not an object', () => {
      expect(refusal('client_id=x')).toMatchObject({ field: 'credentials' });
      expect(refusal(null)).toMatchObject({ field: 'credentials' });
    });
  });

  describe('PKCS#12', () => {
    it('opens a bundle with its password and takes its chain', () => {
      const credentials = parsePixApiCredentials(p12(), PIX_API, NOW);
      expect(credentials.certificate.subject).toBe('CN=pix-gateway-client, O=Pix Gateway Tests, C=BR');
      // The bundle's CA is self-signed, a root the server has: not sent.
      expect(credentials.tls.certificatePem.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
      expect(createPrivateKey(credentials.tls.privateKeyPem).asymmetricKeyType).toBe('rsa');
    });

    it('opens a bundle without a password, as Efí hands them out, with none given or an empty one', () => {
      expect(parsePixApiCredentials(p12({ pkcs12_base64: pki.clientP12NoPassword.base64, pkcs12_password: undefined }), EFI, NOW).clientId).toBe('client-1');
      expect(parsePixApiCredentials(p12({ pkcs12_base64: bundle(''), pkcs12_password: undefined }), EFI, NOW).clientId).toBe('client-1');
      expect(parsePixApiCredentials(p12({ pkcs12_base64: bundle(''), pkcs12_password: '' }), EFI, NOW).clientId).toBe('client-1');
    });

    it('opens a 3DES bundle (the legacy form, which OpenSSL 3 alone would refuse) and an AES one', () => {
      expect(parsePixApiCredentials(p12({ pkcs12_base64: bundle('pw', '3des'), pkcs12_password: 'pw' }), PIX_API, NOW).clientId).toBe('client-1');
      expect(parsePixApiCredentials(p12({ pkcs12_base64: bundle('pw', 'aes256'), pkcs12_password: 'pw' }), PIX_API, NOW).clientId).toBe('client-1');
    });

    it('refuses a wrong password, naming pkcs12_password and not quoting it', () => {
      const error = refusal(p12({ pkcs12_password: 'wrong-password-123' }));
      expect(error).toMatchObject({ field: 'credentials.pkcs12_password', message: 'does not open the PKCS#12 bundle' });
    });

    it('asks for the password of a bundle that has one', () => {
      expect(refusal(p12({ pkcs12_password: undefined }))).toMatchObject({ field: 'credentials.pkcs12_password', message: expect.stringMatching(/is required/) });
    });

    it.each([
      ['text that is not base64', { pkcs12_base64: 'not base64!' }],
      ['base64 that is not DER', { pkcs12_base64: Buffer.from('hello world, not a bundle').toString('base64') }],
      [
        'DER that is not PKCS#12',
        { pkcs12_base64: Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(forge.pki.certificateFromPem(pki.client.cert))).getBytes(), 'binary').toString('base64') },
      ],
    ])('refuses %s, naming pkcs12_base64', (_, overrides) => {
      expect(refusal(p12(overrides)).field).toBe('credentials.pkcs12_base64');
    });

    it('refuses a bundle whose certificate expired', () => {
      const key = forge.pki.privateKeyFromPem(pki.expiredClient.key);
      const expired = forge.util.encode64(
        forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [forge.pki.certificateFromPem(pki.expiredClient.cert)], 'pw', { algorithm: '3des' })).getBytes(),
      );
      expect(refusal(p12({ pkcs12_base64: expired, pkcs12_password: 'pw' }))).toMatchObject({ field: 'credentials.pkcs12_base64', message: expect.stringMatching(/expired/) });
    });

    it('refuses a bundle whose key has no certificate', () => {
      const key = forge.pki.privateKeyFromPem(pki.client.key);
      const other = forge.util.encode64(
        forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, [forge.pki.certificateFromPem(pki.untrustedClient.cert)], 'pw', { algorithm: '3des' })).getBytes(),
      );
      expect(refusal(p12({ pkcs12_base64: other, pkcs12_password: 'pw' }))).toMatchObject({
        field: 'credentials.pkcs12_base64',
        message: expect.stringMatching(/matches its private key/),
      });
    });
  });

  describe("a profile's own fields", () => {
    it("requires Banco do Brasil's application key", () => {
      expect(refusal(pem(), BB)).toMatchObject({ field: 'credentials.app_key' });
      expect(parsePixApiCredentials(pem({ app_key: 'app-key-1' }), BB, NOW).extras).toEqual({ app_key: 'app-key-1' });
    });

    it("takes Efí's skip_mtls_checking as a boolean only", () => {
      expect(parsePixApiCredentials(pem({ skip_mtls_checking: true }), EFI, NOW).extras).toEqual({ skip_mtls_checking: true });
      expect(refusal(pem({ skip_mtls_checking: 'yes' }), EFI)).toMatchObject({ field: 'credentials.skip_mtls_checking' });
    });

    it("does not take another bank's field", () => {
      expect(refusal(pem({ app_key: 'k' }), EFI)).toMatchObject({ field: 'credentials.app_key' });
    });

    it('needs no client_secret for Sicoob, whose token call is authenticated by the certificate', () => {
      expect(parsePixApiCredentials(pem({ client_secret: undefined }), SICOOB, NOW).clientSecret).toBeNull();
    });
  });
});

import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { type CredentialsSummary, CredentialsError } from '../provider-adapter';
import type { PixApiCredentials, PixApiProfile } from './profile';

// The type lives with the profile, whose hooks take it; re-exported here, where it is parsed.
export type { PixApiCredentials } from './profile';

/** The fields every profile takes; a profile's extras come on top. */
const STANDARD_FIELDS = ['client_id', 'client_secret', 'certificate_pem', 'private_key_pem', 'ca_pem', 'pkcs12_base64', 'pkcs12_password'];
const MAX_FIELD_LENGTH = 64 * 1024;

const fail = (field: string, message: string): never => {
  throw new CredentialsError(`credentials.${field}`, message);
};

/**
 * Checks `input` for shape before anything is stored: every missing or mistyped field, a PEM that
 * does not parse, a key that does not match its certificate, a certificate outside its validity
 * at `now`, a PKCS#12 bundle that the password does not open. Each is a CredentialsError naming
 * `credentials.<field>`; no message quotes a value.
 */
export function parsePixApiCredentials(input: unknown, profile: PixApiProfile, now: Date): PixApiCredentials {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new CredentialsError('credentials', 'must be an object');
  }
  const raw = input as Record<string, unknown>;
  const known = new Set([...STANDARD_FIELDS, ...profile.extras.map((extra) => extra.name)]);
  for (const field of Object.keys(raw)) {
    if (!known.has(field)) fail(field, `is not a field of ${profile.displayName} credentials`);
  }

  const clientId = text(raw, 'client_id', true)!;
  const clientSecret = text(raw, 'client_secret', profile.clientSecret === 'required');
  const caPem = optionalCa(raw);

  const pem = raw.certificate_pem !== undefined || raw.private_key_pem !== undefined;
  const pkcs12 = raw.pkcs12_base64 !== undefined || raw.pkcs12_password !== undefined;
  if (pem && pkcs12) fail(raw.pkcs12_base64 !== undefined ? 'pkcs12_base64' : 'pkcs12_password', 'give either certificate_pem and private_key_pem, or pkcs12_base64, not both');
  if (!pem && !pkcs12) fail('certificate_pem', 'is required (or pkcs12_base64)');

  const pair = pem ? fromPem(raw) : fromPkcs12(raw);
  checkValidity(pair.leaf, pem ? 'certificate_pem' : 'pkcs12_base64', now);

  const extras: Record<string, string | boolean> = {};
  for (const extra of profile.extras) {
    const value = raw[extra.name];
    if (value === undefined || value === null || value === '') {
      if (extra.required) fail(extra.name, 'is required');
      continue;
    }
    if (extra.kind === 'boolean') {
      if (typeof value !== 'boolean') fail(extra.name, 'must be true or false');
      extras[extra.name] = value as boolean;
    } else {
      extras[extra.name] = text(raw, extra.name, true)!;
    }
  }

  return {
    clientId,
    clientSecret: clientSecret ?? null,
    tls: { certificatePem: pair.certificatePem, privateKeyPem: pair.privateKeyPem, caPem },
    extras,
    certificate: { subject: subjectOf(pair.leaf), expiresAt: new Date(pair.leaf.validTo).toISOString() },
  };
}

/** What may be shown: the client id, the certificate's subject and expiry. */
export function summarizePixApiCredentials(credentials: PixApiCredentials): CredentialsSummary {
  return { clientId: credentials.clientId, certificateSubject: credentials.certificate.subject, certificateExpiresAt: credentials.certificate.expiresAt };
}

function text(raw: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const value = raw[field];
  if (value === undefined || value === null || value === '') {
    if (required) fail(field, 'is required');
    return undefined;
  }
  if (typeof value !== 'string') return fail(field, 'must be a string');
  if (value.length > MAX_FIELD_LENGTH) fail(field, `must be at most ${MAX_FIELD_LENGTH} characters`);
  if (value.trim() !== value || value.trim() === '') fail(field, 'must not start or end with spaces');
  return value;
}

/** PEM text as pasted: literal `\n` sequences (a JSON string escaped twice) become line breaks. */
function pemText(raw: Record<string, unknown>, field: string): string {
  const value = raw[field];
  if (value === undefined || value === null || value === '') return fail(field, 'is required');
  if (typeof value !== 'string') return fail(field, 'must be a string');
  if (value.length > MAX_FIELD_LENGTH) fail(field, `must be at most ${MAX_FIELD_LENGTH} characters`);
  const unescaped = value.includes('\n') ? value : value.replace(/(?:\\r)?\\n/g, '\n');
  return `${unescaped.replace(/\r\n/g, '\n').trim()}\n`;
}

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Every certificate in a PEM bundle, each parsed; a bundle with none, or one that does not parse, fails `field`. */
function certificatesOf(pem: string, field: string): X509Certificate[] {
  const blocks = pem.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) fail(field, 'is not a PEM certificate (no BEGIN CERTIFICATE block)');
  return blocks.map((block) => {
    try {
      return new X509Certificate(block);
    } catch {
      return fail(field, 'holds a certificate that does not parse');
    }
  });
}

function optionalCa(raw: Record<string, unknown>): string | null {
  if (raw.ca_pem === undefined || raw.ca_pem === null || raw.ca_pem === '') return null;
  const pem = pemText(raw, 'ca_pem');
  return certificatesOf(pem, 'ca_pem')
    .map((certificate) => certificate.toString())
    .join('');
}

interface Pair {
  leaf: X509Certificate;
  /** The leaf, then the rest of the chain the account sends in the handshake. */
  certificatePem: string;
  privateKeyPem: string;
}

function privateKeyOf(pem: string, field: string): KeyObject {
  if (!/-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/.test(pem)) fail(field, 'is not a PEM private key (no BEGIN PRIVATE KEY block)');
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(pem)) fail(field, 'is encrypted: give the key without a passphrase');
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    return fail(field, 'does not parse as a private key');
  }
}

function fromPem(raw: Record<string, unknown>): Pair {
  const certificatePem = pemText(raw, 'certificate_pem');
  const privateKeyPem = pemText(raw, 'private_key_pem');
  const chain = certificatesOf(certificatePem, 'certificate_pem');
  const key = privateKeyOf(privateKeyPem, 'private_key_pem');
  const leaf = chain[0]!;
  if (!leaf.checkPrivateKey(key)) fail('private_key_pem', 'does not match the certificate (the first one of certificate_pem)');
  return {
    leaf,
    certificatePem: chain.map((certificate) => certificate.toString()).join(''),
    privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

/**
 * Opens a PKCS#12 bundle (node-forge: Node has no reader of its own) and finds the key and the
 * certificate that goes with it; the bundle's other certificates follow it as its chain. Without
 * a password both forms of "none" are tried: the empty string, as OpenSSL and Efí make bundles,
 * and no password at all, as some tools do.
 */
function fromPkcs12(raw: Record<string, unknown>): Pair {
  const base64 = text(raw, 'pkcs12_base64', true)!.replace(/\s+/g, '');
  const password = raw.pkcs12_password ?? undefined;
  if (password !== undefined && typeof password !== 'string') fail('pkcs12_password', 'must be a string');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) fail('pkcs12_base64', 'is not base64');

  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(base64, 'base64').toString('binary')));
  } catch {
    return fail('pkcs12_base64', 'is not a PKCS#12 bundle (it does not parse as DER)');
  }

  const candidates: (string | null)[] = typeof password === 'string' && password !== '' ? [password] : ['', null];
  let p12: forge.pkcs12.Pkcs12Pfx | undefined;
  let wrongPassword = false;
  for (const candidate of candidates) {
    try {
      // The typings say string, but forge reads null as "no password" (a zero-length one).
      p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, candidate!);
      break;
    } catch (error) {
      const message = (error as Error).message ?? '';
      if (/password|MAC could not be verified/i.test(message)) wrongPassword = true;
      else if (/not an PKCS#12 PFX|unsupported/i.test(message)) return fail('pkcs12_base64', `is not a PKCS#12 bundle this gateway can open (${message.slice(0, 120)})`);
      else wrongPassword = true; // a wrong password decrypts to garbage, which then fails to parse
    }
  }
  if (!p12) {
    return wrongPassword
      ? fail('pkcs12_password', password === undefined || password === '' ? 'is required: the PKCS#12 bundle has a password' : 'does not open the PKCS#12 bundle')
      : fail('pkcs12_base64', 'could not be opened');
  }

  const keys: KeyObject[] = [];
  const certificates: X509Certificate[] = [];
  for (const safeContents of p12.safeContents) {
    for (const bag of safeContents.safeBags) {
      if (bag.type === forge.pki.oids.keyBag || bag.type === forge.pki.oids.pkcs8ShroudedKeyBag) {
        const der = bag.key ? forge.asn1.toDer(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key))) : bag.asn1 ? forge.asn1.toDer(bag.asn1) : undefined;
        if (!der) continue;
        try {
          keys.push(createPrivateKey({ key: Buffer.from(der.getBytes(), 'binary'), format: 'der', type: 'pkcs8' }));
        } catch {
          fail('pkcs12_base64', 'holds a private key that does not parse');
        }
      } else if (bag.type === forge.pki.oids.certBag) {
        const der = bag.cert ? forge.asn1.toDer(forge.pki.certificateToAsn1(bag.cert)) : bag.asn1 ? forge.asn1.toDer(bag.asn1) : undefined;
        if (!der) continue;
        try {
          certificates.push(new X509Certificate(Buffer.from(der.getBytes(), 'binary')));
        } catch {
          fail('pkcs12_base64', 'holds a certificate that does not parse');
        }
      }
    }
  }
  if (keys.length === 0) fail('pkcs12_base64', 'holds no private key');
  if (certificates.length === 0) fail('pkcs12_base64', 'holds no certificate');
  const key = keys[0]!;
  const leaf = certificates.find((certificate) => certificate.checkPrivateKey(key));
  if (!leaf) return fail('pkcs12_base64', 'holds no certificate that matches its private key');
  // The chain: the bundle's other certificates, except self-signed roots the server already has.
  const chain = certificates.filter((certificate) => certificate !== leaf && certificate.subject !== certificate.issuer);
  return {
    leaf,
    certificatePem: [leaf, ...chain].map((certificate) => certificate.toString()).join(''),
    privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

function checkValidity(certificate: X509Certificate, field: string, now: Date): void {
  const from = new Date(certificate.validFrom);
  const to = new Date(certificate.validTo);
  if (to.getTime() <= now.getTime()) fail(field, `holds a certificate that expired on ${to.toISOString()}`);
  if (from.getTime() > now.getTime()) fail(field, `holds a certificate that is valid only from ${from.toISOString()}`);
}

/** `CN=…, O=…, C=…`: Node's one-attribute-a-line subject, in the certificate's order, on one line. */
function subjectOf(certificate: X509Certificate): string {
  return certificate.subject.split('\n').filter(Boolean).join(', ');
}

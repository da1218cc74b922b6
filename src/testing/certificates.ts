import { constants, createHash, generateKeyPairSync, privateEncrypt, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import forge from 'node-forge';

/**
 * A test-time PKI, made in memory the first time a test asks for it and kept for the rest of the
 * process, so several specs in one Jest worker share it.
 *
 * Keys are RSA 2048 from Node's native crypto (fast, and node-forge's PKCS#12 writer only takes RSA
 * keys); node-forge builds the X.509 certificates and the PKCS#12 bundles, and Node's crypto signs
 * the certificates (node-forge's own RSA, in JavaScript, took over a second a signature).
 */

/** A certificate and its private key, both PEM. */
export interface CertAndKey {
  cert: string;
  key: string;
}

export interface TestPki {
  /** The test CA: it signs every certificate below except `untrustedClient`. */
  ca: CertAndKey;
  /** The PSP's server certificate: CN=localhost, SAN DNS:localhost and IP:127.0.0.1. */
  server: CertAndKey;
  /** A valid client certificate (extendedKeyUsage clientAuth), as a PSP issues to its customer. */
  client: CertAndKey;
  /** Signed by the CA, but its validity ended yesterday: refused in the TLS handshake. */
  expiredClient: CertAndKey;
  /** A CA-signed certificate with a private key that is NOT its own (Node refuses to load the pair). */
  mismatchedClient: CertAndKey;
  /** Self-signed, from outside the CA: refused in the TLS handshake. */
  untrustedClient: CertAndKey;
  /** `client`'s certificate (and the CA's) with its key as PKCS#12, base64, with a password. */
  clientP12: { base64: string; password: string };
  /** The same bundle without a password (as some PSPs hand it out). */
  clientP12NoPassword: { base64: string };
}

const DAY_MS = 24 * 60 * 60 * 1000;

interface KeyPair {
  privatePem: string;
  forgePrivate: forge.pki.rsa.PrivateKey;
  forgePublic: forge.pki.rsa.PublicKey;
}

/** DER of a SHA-256 DigestInfo up to the digest itself (RFC 8017, section 9.2, note 1). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * What node-forge's `cert.sign(key, md)` calls `key.sign(md)` on, signing with Node's crypto: an
 * RSASSA-PKCS1-v1_5 signature (sha256WithRSAEncryption) is the private-key operation on the DER
 * DigestInfo of the digest, which is what `privateEncrypt` with PKCS#1 padding computes.
 */
function nativeSigner(key: KeyPair): forge.pki.rsa.PrivateKey {
  const sign = (md: forge.md.MessageDigest): string => {
    const digest = Buffer.from(md.digest().getBytes(), 'binary');
    const digestInfo = Buffer.concat([SHA256_DIGEST_INFO, digest]);
    return privateEncrypt({ key: key.privatePem, padding: constants.RSA_PKCS1_PADDING }, digestInfo).toString('binary');
  };
  return { ...key.forgePrivate, sign };
}

function rsaKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return {
    privatePem: privateKey,
    forgePrivate: forge.pki.privateKeyFromPem(privateKey),
    forgePublic: forge.pki.publicKeyFromPem(publicKey),
  };
}

interface Issue {
  commonName: string;
  subjectKey: KeyPair;
  /** The issuer; omitted for a self-signed certificate. */
  issuer?: { cert: forge.pki.Certificate; key: KeyPair };
  isCa?: boolean;
  usage?: 'server' | 'client';
  notBefore?: Date;
  notAfter?: Date;
}

function issue(spec: Issue): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = spec.subjectKey.forgePublic;
  // A positive serial: the top bit of the first byte cleared.
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = serial.toString('hex');
  const now = Date.now();
  cert.validity.notBefore = spec.notBefore ?? new Date(now - DAY_MS);
  cert.validity.notAfter = spec.notAfter ?? new Date(now + 365 * DAY_MS);
  const subject = [
    { name: 'commonName', value: spec.commonName },
    { name: 'organizationName', value: 'Pix Gateway Tests' },
    { name: 'countryName', value: 'BR' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(spec.issuer ? spec.issuer.cert.subject.attributes : subject);
  const extensions: object[] = [{ name: 'subjectKeyIdentifier' }];
  if (spec.issuer) {
    extensions.push({ name: 'authorityKeyIdentifier', keyIdentifier: spec.issuer.cert.generateSubjectKeyIdentifier().getBytes() });
  }
  if (spec.isCa) {
    extensions.push({ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true });
  } else {
    extensions.push(
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: spec.usage === 'server', clientAuth: spec.usage === 'client' },
    );
  }
  if (spec.usage === 'server') {
    extensions.push({
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' }, // dNSName
        { type: 7, ip: '127.0.0.1' }, // iPAddress
      ],
    });
  }
  cert.setExtensions(extensions);
  cert.sign(nativeSigner(spec.issuer?.key ?? spec.subjectKey), forge.md.sha256.create());
  return cert;
}

function p12Base64(key: KeyPair, chain: forge.pki.Certificate[], password: string | null): string {
  // AES-256 (PBES2) rather than forge's default 3DES, which OpenSSL 3 still reads but frowns upon.
  const asn1 = forge.pkcs12.toPkcs12Asn1(key.forgePrivate, chain, password, { algorithm: 'aes256', friendlyName: 'pix-client' });
  return forge.util.encode64(forge.asn1.toDer(asn1).getBytes());
}

function build(): TestPki {
  const pem = (cert: forge.pki.Certificate) => forge.pki.certificateToPem(cert);
  const caKey = rsaKeyPair();
  const caCert = issue({ commonName: 'Pix Gateway Test CA', subjectKey: caKey, isCa: true, notAfter: new Date(Date.now() + 10 * 365 * DAY_MS) });
  const issuer = { cert: caCert, key: caKey };

  const serverKey = rsaKeyPair();
  const serverCert = issue({ commonName: 'localhost', subjectKey: serverKey, issuer, usage: 'server' });

  const clientKey = rsaKeyPair();
  const clientCert = issue({ commonName: 'pix-gateway-client', subjectKey: clientKey, issuer, usage: 'client' });

  const expiredKey = rsaKeyPair();
  const now = Date.now();
  const expiredCert = issue({
    commonName: 'pix-gateway-client-expired',
    subjectKey: expiredKey,
    issuer,
    usage: 'client',
    notBefore: new Date(now - 30 * DAY_MS),
    notAfter: new Date(now - DAY_MS),
  });

  // A certificate issued for a key of its own, handed out with the valid client's key instead.
  const orphanKey = rsaKeyPair();
  const mismatchedCert = issue({ commonName: 'pix-gateway-client-mismatched', subjectKey: orphanKey, issuer, usage: 'client' });

  const untrustedKey = rsaKeyPair();
  const untrustedCert = issue({ commonName: 'pix-gateway-client-untrusted', subjectKey: untrustedKey, usage: 'client' });

  const password = 'test-p12-password';
  return {
    ca: { cert: pem(caCert), key: caKey.privatePem },
    server: { cert: pem(serverCert), key: serverKey.privatePem },
    client: { cert: pem(clientCert), key: clientKey.privatePem },
    expiredClient: { cert: pem(expiredCert), key: expiredKey.privatePem },
    mismatchedClient: { cert: pem(mismatchedCert), key: clientKey.privatePem },
    untrustedClient: { cert: pem(untrustedCert), key: untrustedKey.privatePem },
    clientP12: { base64: p12Base64(clientKey, [clientCert, caCert], password), password },
    clientP12NoPassword: { base64: p12Base64(clientKey, [clientCert, caCert], null) },
  };
}

let cached: TestPki | undefined;

/**
 * Where a built PKI is kept between Jest workers and runs. Building one takes seconds of CPU (RSA
 * signatures and PKCS#12 in node-forge), and Jest gives every spec file its own module registry, so
 * an in-memory cache alone would rebuild it per file. The name carries this file's content hash
 * (a change to how certificates are made starts afresh) and the UTC day: the expired certificate
 * ended yesterday and the others begin a day back, so a day-old PKI is rebuilt rather than reused.
 */
function cacheFile(): string {
  const source = createHash('sha256').update(readFileSync(__filename)).digest('hex').slice(0, 16);
  const day = new Date().toISOString().slice(0, 10);
  return join(__dirname, '..', '..', 'node_modules', '.cache', 'pix-gateway-tests', `pki-${source}-${day}.json`);
}

/** The test PKI: built on first use, shared by every spec and worker of the day through a file. */
export function testPki(): TestPki {
  if (cached) return cached;
  const file = cacheFile();
  if (existsSync(file)) {
    cached = JSON.parse(readFileSync(file, 'utf8')) as TestPki;
    return cached;
  }
  cached = build();
  mkdirSync(dirname(file), { recursive: true });
  // Written aside and renamed, so a worker never reads half a file.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(cached));
  renameSync(partial, file);
  return cached;
}

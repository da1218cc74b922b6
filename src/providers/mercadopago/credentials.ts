import { X509Certificate } from 'node:crypto';
import { type AccountSettings, CredentialsError } from '../provider-adapter';
import type { MtlsMaterial } from '../transport/transport';

/**
 * A Mercado Pago account's credentials: the application's access token (a bearer token on every
 * call, `APP_USR-…` in production, `TEST-…` for test credentials) and the secret signature that
 * "Suas integrações" → Webhooks shows for the application (docs/providers.md, Mercado Pago). Never
 * logged, never echoed in a message.
 */
export interface MercadoPagoCredentials {
  accessToken: string;
  webhookSecret: string;
  /**
   * An extra certificate authority for the API's server (a proxy or test host with a private CA),
   * as the transport's channel carries it: no client certificate, only the CA.
   */
  tls: MtlsMaterial | null;
}

const FIELDS = ['access_token', 'webhook_secret', 'ca_pem'] as const;
/** Printable ASCII without spaces: what goes in an Authorization header and an HMAC key. */
const TOKEN = /^[\x21-\x7e]{8,512}$/;

function refuse(field: string, message: string): never {
  throw new CredentialsError(`credentials.${field}`, message);
}

export function parseMercadoPagoCredentials(input: unknown, settings: AccountSettings): MercadoPagoCredentials {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new CredentialsError('credentials', 'must be an object');
  const given = input as Record<string, unknown>;
  const unknown = Object.keys(given).find((name) => !(FIELDS as readonly string[]).includes(name));
  if (unknown !== undefined) refuse(unknown, 'is not a Mercado Pago credential (access_token, webhook_secret, ca_pem)');
  // Mercado Pago has one API host and no Pix key or token endpoint of the account's own.
  if (settings.pixKey !== null) throw new CredentialsError('pix_key', 'must be left out: Mercado Pago charges go to the account that owns the access token');
  if (settings.tokenUrl !== null) throw new CredentialsError('token_url', 'must be left out: Mercado Pago access tokens are given, not requested');
  const accessToken = given.access_token;
  if (accessToken === undefined || accessToken === null || accessToken === '') refuse('access_token', 'is required');
  if (typeof accessToken !== 'string' || !TOKEN.test(accessToken)) refuse('access_token', 'must be 8 to 512 printable characters without spaces');
  const webhookSecret = given.webhook_secret;
  if (webhookSecret === undefined || webhookSecret === null || webhookSecret === '') refuse('webhook_secret', 'is required');
  if (typeof webhookSecret !== 'string' || !TOKEN.test(webhookSecret)) refuse('webhook_secret', 'must be 8 to 512 printable characters without spaces');
  return { accessToken, webhookSecret, tls: caOf(given.ca_pem) };
}

function caOf(value: unknown): MtlsMaterial | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') refuse('ca_pem', 'must be PEM text');
  try {
    new X509Certificate(value);
  } catch {
    refuse('ca_pem', 'is not a PEM certificate');
  }
  // No client certificate: the transport's channel carries only the extra CA.
  return { certificatePem: '', privateKeyPem: '', caPem: value };
}

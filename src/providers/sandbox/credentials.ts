import { Secret } from '../../config/app-config';
import { type Account, type AccountSettings, CredentialsError } from '../provider-adapter';

/** The built-in account's id: the provider's name (payments made through it have no provider account). */
export const SANDBOX_BUILT_IN_ACCOUNT = 'sandbox';

/**
 * A sandbox account's credentials (docs/providers.md, the sandbox): the secret the simulated PSP
 * signs this account's callbacks with. Optional outside production, where unsigned callbacks are
 * the "simulate an event" call; required in production.
 */
export interface SandboxCredentials {
  webhookSecret: Secret | null;
}

const trimSlashes = (url: string) => url.replace(/\/+$/, '');

/**
 * A sandbox account is always served by the gateway's own simulated PSP (SANDBOX_BASE_URL), the
 * only place the gateway-wide SANDBOX_API_TOKEN may go: a `base_url` of its own is refused here,
 * when the operator saves it, rather than silently ignored or sent the token (which would hand
 * the gateway's credential to whoever runs that host). Calls never read an account's base URL.
 */
export function parseSandboxCredentials(input: unknown, settings: AccountSettings, gateway: { baseUrl: string; isProduction: boolean }): SandboxCredentials {
  if (settings.baseUrl !== null && trimSlashes(settings.baseUrl) !== trimSlashes(gateway.baseUrl)) {
    throw new CredentialsError('base_url', "must be left out: sandbox accounts use the gateway's simulated PSP (SANDBOX_BASE_URL)");
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new CredentialsError('credentials', 'must be an object');
  const { webhook_secret: secret, ...rest } = input as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) throw new CredentialsError(`credentials.${unknown[0]}`, 'is not a sandbox credential (only webhook_secret)');
  if (secret === undefined || secret === null) {
    // Production applies only authenticated callbacks: an unsigned simulated PSP would let anyone move payments.
    if (gateway.isProduction) throw new CredentialsError('credentials.webhook_secret', 'is required in production');
    return { webhookSecret: null };
  }
  if (typeof secret !== 'string' || secret.length < 16 || secret.length > 256) {
    throw new CredentialsError('credentials.webhook_secret', 'must be a string of 16 to 256 characters');
  }
  return { webhookSecret: new Secret(secret) };
}

/**
 * The secret to have what an account creates signed with, sent with each creation: a stored
 * account's own; none for the built-in account, whose callbacks are signed with the secret the
 * simulated PSP was mounted with (SANDBOX_WEBHOOK_SECRET).
 */
export function creationSecretOf(account: Account<SandboxCredentials>): string | undefined {
  return account.id !== SANDBOX_BUILT_IN_ACCOUNT && account.credentials.webhookSecret ? account.credentials.webhookSecret.reveal() : undefined;
}

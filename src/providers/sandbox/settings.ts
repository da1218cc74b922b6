import { createHmac } from 'node:crypto';
import { AppConfig, Secret } from '../../config/app-config';
import { ConfigError, parseBool } from '../../config/load-config';
import { parseRefundDelay } from '../../common/sandbox-wire/refund-delay';

/**
 * The sandbox provider's built-in configuration (README, Configuration): whether the gateway serves the
 * simulated PSP, where the adapter reaches it, the credential it presents, and the secret its
 * callbacks are signed with. Read from the environment at boot, here, so the gateway's AppConfig
 * knows nothing of it.
 */
export interface SandboxSettings {
  /** SANDBOX_ENABLED: the gateway serves the simulated PSP under /sandbox (default: on outside production). */
  enabled: boolean;
  /** SANDBOX_WEBHOOK_SECRET: when set, the simulated PSP signs its callbacks and /webhooks/sandbox requires the signature. */
  webhookSecret?: Secret;
  /** SANDBOX_BASE_URL: where the adapter calls the simulated PSP (default: this gateway's own /sandbox). */
  baseUrl: string;
  /**
   * The bearer credential the adapter presents to the simulated PSP, as a real PSP client presents
   * its API key: SANDBOX_API_TOKEN, else derived from SECRETS_KEY (so every process on one database
   * agrees on it without another setting).
   */
  apiToken: Secret;
  /**
   * SANDBOX_REFUND_DELAY_MS: how long a refund stays in process at the simulated PSP before it
   * settles by itself (absent: DEFAULT_SANDBOX_REFUND_DELAY_MS); `manual`: only when told (`POST /sandbox/_control/refunds/:id/settle`).
   */
  refundSettleDelayMs?: number | null;
}

/** Reads and checks the sandbox provider's settings; every problem at once, as a ConfigError (the process prints one line each). */
export function loadSandboxSettings(config: AppConfig): SandboxSettings {
  const env = config.environment.reveal();
  const problems: string[] = [];
  const enabled = parseBool(env, 'SANDBOX_ENABLED', !config.isProduction, problems);
  const webhookSecret = env.SANDBOX_WEBHOOK_SECRET || undefined;
  // In production every callback that moves a payment must be authenticated: a simulated PSP served there signs its callbacks.
  if (config.isProduction && enabled && !webhookSecret) {
    problems.push('SANDBOX_ENABLED=true in production requires SANDBOX_WEBHOOK_SECRET, so that nobody can post unsigned sandbox events.');
  }
  const apiToken = env.SANDBOX_API_TOKEN || undefined;
  if (apiToken !== undefined && apiToken.length < 16) problems.push('SANDBOX_API_TOKEN must be at least 16 characters.');
  const baseUrl = (env.SANDBOX_BASE_URL?.trim() || `http://127.0.0.1:${config.port}/sandbox`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(baseUrl)) problems.push('SANDBOX_BASE_URL must be an http(s) URL.');
  const refundSettleDelayMs = parseRefundDelay(env.SANDBOX_REFUND_DELAY_MS, problems);
  if (problems.length) throw new ConfigError(problems);
  return {
    enabled,
    webhookSecret: webhookSecret ? new Secret(webhookSecret) : undefined,
    baseUrl,
    apiToken: new Secret(apiToken ?? deriveSandboxApiToken(config.secretsKey.reveal())),
    refundSettleDelayMs,
  };
}

/** The adapter's credential when SANDBOX_API_TOKEN is unset: a one-way function of SECRETS_KEY. */
export function deriveSandboxApiToken(secretsKey: Buffer): string {
  return `sbx_${createHmac('sha256', secretsKey).update('pix-gateway/sandbox-api-token').digest('base64url')}`;
}

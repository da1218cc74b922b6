import { SANDBOX_BATCH_MAX_CHARGES } from '../../common/sandbox-wire/sandbox-due-api';
import { SANDBOX_LEAD_TIME } from '../../common/sandbox-wire/sandbox-recurring-api';
import type { ProviderCapabilities, ProviderDescriptor } from '../provider-descriptor';

/** What the simulated PSP can do: all a real one does but register webhooks (it is told each charge's URL). */
const SANDBOX_CAPABILITIES: ProviderCapabilities = {
  refund: true,
  partialRefund: true,
  cancel: true,
  registerWebhook: false,
  txid: 'gateway',
  // The Central Bank's 2-to-10-day rule, kept so merchants meet it before going live (docs/sandbox.md, Recurrences).
  recurring: { leadTime: SANDBOX_LEAD_TIME, source: 'docs/sandbox.md' },
  // Due-date charges and batches of up to 1,000 of them (docs/sandbox.md, Due-date charges and Batches).
  dueCharges: { source: 'docs/sandbox.md' },
  chargeBatches: { maxCharges: SANDBOX_BATCH_MAX_CHARGES, source: 'docs/sandbox.md' },
};

/**
 * The simulated PSP as the catalogue shows it (docs/sandbox.md): one environment, served by this
 * gateway at `baseUrl` unless an account points elsewhere, and one credential, the secret its
 * callbacks are signed with, which production requires (parseSandboxCredentials, credentials.ts).
 */
export function sandboxDescriptor(options: { baseUrl: string; isProduction: boolean }): ProviderDescriptor {
  return {
    name: 'sandbox',
    label: 'Sandbox (simulated PSP)',
    environments: [{ name: 'sandbox', baseUrl: options.baseUrl, tokenUrl: null }],
    settings: [{ name: 'base_url', label: 'Sandbox URL', requiredIn: [], help: 'Another simulated PSP than the one this gateway serves.' }],
    credentials: [
      {
        name: 'webhook_secret',
        label: 'Webhook secret',
        kind: 'secret',
        required: options.isProduction,
        help: "16 to 256 characters: the simulated PSP signs this account's events with it.",
      },
    ],
    oneOf: [],
    capabilities: SANDBOX_CAPABILITIES,
  };
}

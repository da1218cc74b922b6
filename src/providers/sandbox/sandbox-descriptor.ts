import type { ProviderCapabilities } from '../provider-adapter';
import type { ProviderDescriptor } from '../provider-descriptor';

/**
 * The simulated PSP as the catalogue shows it (docs/sandbox.md): one environment, served by this
 * gateway at `baseUrl` unless an account points elsewhere, and one credential, the secret its
 * events are signed with, which production requires (SandboxAdapter.parseCredentials).
 */
export function sandboxDescriptor(capabilities: ProviderCapabilities, options: { baseUrl: string; isProduction: boolean }): ProviderDescriptor {
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
    capabilities,
  };
}

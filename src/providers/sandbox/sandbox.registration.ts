import type { ProviderContext, ProviderRegistration } from '../provider-registry';
import { SandboxAdapter } from './sandbox.adapter';
import { loadSandboxSettings } from './settings';

/**
 * The sandbox as ProvidersModule registers it: its adapter, with the built-in account merchants
 * without provider accounts use. Its settings are its own, read at boot (settings.ts). The
 * simulated PSP it calls is a product of its own (src/sandbox-psp, docs/sandbox.md), which the
 * gateway serves under /sandbox while SANDBOX_ENABLED (src/app.ts) or which runs alone.
 */
export function sandboxProvider({ config, transport }: ProviderContext): ProviderRegistration {
  const settings = loadSandboxSettings(config);
  // In production the sandbox provider (whose simulated PSP sends unsigned callbacks without a secret) is off unless asked for;
  // elsewhere its adapter stays on even when the gateway does not serve it, to reach one run alone.
  if (!settings.enabled && config.isProduction) return { adapters: [] };
  const adapter = new SandboxAdapter(transport, settings, { isProduction: config.isProduction, timeoutMs: config.upstreamTimeoutMs });
  return { adapters: [adapter] };
}

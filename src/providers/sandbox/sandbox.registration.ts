import { bearerMatches } from '../../auth/bearer';
import type { ProviderContext, ProviderRegistration } from '../provider-registry';
import { SandboxAdapter } from './sandbox.adapter';
import { loadSandboxSettings } from './sandbox-settings';
import { sandboxServer } from '../../sandbox-psp/sandbox-server';

/**
 * The sandbox as ProvidersModule registers it: its adapter (with the built-in account merchants
 * without provider accounts use), and, while SANDBOX_ENABLED, the simulated PSP served under
 * /sandbox (docs/sandbox.md). Its settings are its own, read at boot (sandbox-settings.ts).
 */
export function sandboxProvider({ config, transport }: ProviderContext): ProviderRegistration {
  const settings = loadSandboxSettings(config);
  // In production the sandbox (which accepts unsigned events without a secret) is off unless asked for;
  // elsewhere its adapter stays on even when the gateway does not serve it, to reach one run alone.
  if (!settings.enabled && config.isProduction) return { adapters: [] };
  const adapter = new SandboxAdapter(transport, settings, { isProduction: config.isProduction, timeoutMs: config.upstreamTimeoutMs });
  if (!settings.enabled) return { adapters: [adapter] };
  return {
    adapters: [adapter],
    routes: [
      {
        prefix: '/sandbox',
        // A plain Fastify plugin with its own bodies, parser and error handling, so its answers are
        // the sandbox's, not the gateway's envelope. In production it only posts events back to this
        // gateway. Only the adapter (with its API token), the admin token or a dashboard session may use it.
        register: async (app, access) => {
          await app.register(sandboxServer, {
            prefix: '/sandbox',
            webhookSecret: settings.webhookSecret?.reveal(),
            notificationUrlPrefix: config.isProduction ? `${config.publicBaseUrl}/webhooks/` : undefined,
            allowPrivateNotificationUrls: config.webhookAllowPrivateUrls,
            refundSettleDelayMs: settings.refundSettleDelayMs,
            authorize: async (request) => bearerMatches(request, settings.apiToken.reveal()) || (await access.isOperator(request)),
          });
        },
      },
    ],
  };
}

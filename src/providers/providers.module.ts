import { HttpModule } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import type { PaymentProvider } from './payment-provider';
import type { ProviderAdapter } from './provider-adapter';
import { PROVIDER_ADAPTERS, ProviderAdapters } from './provider-adapters';
import { PAYMENT_PROVIDERS, ProviderRegistry } from './provider-registry';
import { SandboxProvider } from './sandbox/sandbox.provider';

/**
 * Every payment provider adapter, and the registry that picks one by name. A new provider is one
 * folder under src/providers/ plus one entry in the PAYMENT_PROVIDERS factory below. Imported by the
 * features that talk to providers (payments, webhooks, reconciliation, merchants).
 */
@Module({
  imports: [HttpModule],
  providers: [
    SandboxProvider,
    {
      provide: PAYMENT_PROVIDERS,
      inject: [AppConfig, SandboxProvider],
      useFactory: (config: AppConfig, sandbox: SandboxProvider): PaymentProvider[] => {
        const providers: PaymentProvider[] = [];
        // In production the sandbox (which accepts unsigned events without a secret) is off unless asked for;
        // elsewhere its adapter stays on even when the gateway does not serve it, to reach one run alone.
        if (config.sandboxEnabled || !config.isProduction) providers.push(sandbox);
        return providers;
      },
    },
    ProviderRegistry,
    // Adapters on the account-based interface (docs/providers.md); the Pix API family joins here.
    { provide: PROVIDER_ADAPTERS, useFactory: (): ProviderAdapter[] => [] },
    ProviderAdapters,
  ],
  exports: [PAYMENT_PROVIDERS, ProviderRegistry, ProviderAdapters, HttpModule],
})
export class ProvidersModule {}

import { Module } from '@nestjs/common';
import { Clock } from '../domain/clock';
import { AppConfig } from '../config/app-config';
import type { ProviderAdapter } from './provider-adapter';
import { PROVIDER_ADAPTERS, ProviderAdapters, type ProviderContext, type ProviderRegistration } from './provider-registry';
import { pixApiProvider } from './pix-api/pix-api.registration';
import { mercadoPagoProvider } from './mercadopago/mercadopago.registration';
import { sandboxProvider } from './sandbox/sandbox.registration';
import { OutboundTransport } from './transport/transport';
import { TransportModule } from './transport/transport.module';

const PROVIDER_REGISTRATIONS = Symbol('PROVIDER_REGISTRATIONS');

/**
 * Every provider adapter, chosen by name through ProviderAdapters. A new provider is one folder
 * under src/providers/ plus one entry in the list below: the rest of the gateway knows only the
 * ProviderAdapter interface, accounts and ProviderEvents. Imported by the features that talk to
 * providers (payments, webhooks, reconciliation, merchants).
 */
@Module({
  imports: [TransportModule],
  providers: [
    {
      provide: PROVIDER_REGISTRATIONS,
      inject: [AppConfig, Clock, OutboundTransport],
      useFactory: (config: AppConfig, clock: Clock, transport: OutboundTransport): ProviderRegistration[] => {
        const context: ProviderContext = { config, clock, transport };
        return [pixApiProvider(context), mercadoPagoProvider(context), sandboxProvider(context)];
      },
    },
    { provide: PROVIDER_ADAPTERS, inject: [PROVIDER_REGISTRATIONS], useFactory: (all: ProviderRegistration[]): ProviderAdapter[] => all.flatMap((r) => r.adapters) },
    ProviderAdapters,
  ],
  exports: [ProviderAdapters, TransportModule],
})
export class ProvidersModule {}

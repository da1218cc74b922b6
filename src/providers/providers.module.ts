import { HttpModule, HttpService } from '@nestjs/axios';
import { Module } from '@nestjs/common';
import { Clock } from '../domain/clock';
import { AppConfig } from '../config/app-config';
import type { ProviderAdapter } from './provider-adapter';
import {
  PROVIDER_ADAPTERS,
  PROVIDER_ROUTES,
  ProviderAdapters,
  type ProviderContext,
  type ProviderRegistration,
  ProviderRouteMounts,
  type ProviderRoutes,
} from './provider-adapters';
import { createPixApiAdapters } from './pix-api/pix-api-adapters';
import { sandboxProvider } from './sandbox/sandbox.registration';
import { HttpTransport } from './transport/http-transport';
import { OutboundTransport } from './transport/transport';

const PROVIDER_REGISTRATIONS = Symbol('PROVIDER_REGISTRATIONS');

/**
 * Every provider adapter, chosen by name through ProviderAdapters. A new provider is one folder
 * under src/providers/ plus one entry in the list below: the rest of the gateway knows only the
 * ProviderAdapter interface, accounts and ProviderEvents. Imported by the features that talk to
 * providers (payments, webhooks, reconciliation, merchants).
 */
@Module({
  imports: [HttpModule],
  providers: [
    { provide: OutboundTransport, useFactory: (): OutboundTransport => new HttpTransport() },
    {
      provide: PROVIDER_REGISTRATIONS,
      inject: [AppConfig, Clock, HttpService, OutboundTransport],
      useFactory: (config: AppConfig, clock: Clock, http: HttpService, transport: OutboundTransport): ProviderRegistration[] => {
        const context: ProviderContext = { config, clock, http };
        return [{ adapters: createPixApiAdapters({ clock, timeoutMs: config.upstreamTimeoutMs, transport }) }, sandboxProvider(context)];
      },
    },
    { provide: PROVIDER_ADAPTERS, inject: [PROVIDER_REGISTRATIONS], useFactory: (all: ProviderRegistration[]): ProviderAdapter[] => all.flatMap((r) => r.adapters) },
    { provide: PROVIDER_ROUTES, inject: [PROVIDER_REGISTRATIONS], useFactory: (all: ProviderRegistration[]): ProviderRoutes[] => all.flatMap((r) => r.routes ?? []) },
    ProviderAdapters,
    ProviderRouteMounts,
  ],
  exports: [ProviderAdapters, ProviderRouteMounts, HttpModule, OutboundTransport],
})
export class ProvidersModule {}

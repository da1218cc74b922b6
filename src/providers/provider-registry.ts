import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Clock } from '../domain/clock';
import type { AppConfig } from '../config/app-config';
import type { Account, ProviderAdapter } from './provider-adapter';
import { OutboundTransport } from './transport/transport';
import type { ProviderDescriptor } from './provider-descriptor';

/** Every adapter on the account-based interface, provided by ProvidersModule. */
export const PROVIDER_ADAPTERS = Symbol('PROVIDER_ADAPTERS');

/** What a provider folder is given to build its adapters: it reads its own settings from `config.environment`. */
export interface ProviderContext {
  config: AppConfig;
  clock: Clock;
  /** The gateway's one outbound HTTP client (every provider's calls go through it). */
  transport: OutboundTransport;
}

/** What one provider folder contributes: its adapters (docs/architecture.md, Providers). */
export interface ProviderRegistration {
  adapters: ProviderAdapter[];
}

/** Chooses an adapter by its name (`pix-api`, `efi`, …), and a provider's built-in account. */
@Injectable()
export class ProviderAdapters implements OnApplicationShutdown {
  private readonly byName: ReadonlyMap<string, ProviderAdapter>;

  constructor(
    @Inject(PROVIDER_ADAPTERS) adapters: ProviderAdapter[],
    private readonly transport: OutboundTransport,
  ) {
    this.byName = new Map(adapters.map((adapter) => [adapter.name, adapter]));
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  find(name: string): ProviderAdapter | undefined {
    return this.byName.get(name);
  }

  /** Every provider's description of itself, in the order providers are registered (the catalogue). */
  descriptors(): ProviderDescriptor[] {
    return [...this.byName.values()].map((adapter) => adapter.descriptor);
  }

  /** Providers a merchant with no accounts can use: those with a built-in account. */
  builtInNames(): string[] {
    return [...this.byName.values()].filter((adapter) => adapter.builtInAccount !== undefined).map((adapter) => adapter.name);
  }

  /** The provider's built-in account with its adapter, or undefined when the provider is unknown or has none. */
  builtIn(name: string): { adapter: ProviderAdapter; ref: Account } | undefined {
    const adapter = this.byName.get(name);
    const ref = adapter?.builtInAccount?.();
    return adapter && ref ? { adapter, ref } : undefined;
  }

  // Not onModuleDestroy: Nest runs that before the HTTP server drains, which would cut the upstream
  // calls of requests still in flight at SIGTERM. onApplicationShutdown runs after the drain.
  onApplicationShutdown(): void {
    for (const adapter of this.byName.values()) adapter.close?.();
    this.transport.close();
  }
}

import { Inject, Injectable } from '@nestjs/common';
import type { ProviderAdapter } from './provider-adapter';

/** Every adapter on the account-based interface, provided by ProvidersModule. */
export const PROVIDER_ADAPTERS = Symbol('PROVIDER_ADAPTERS');

/** Chooses an adapter by its name (`pix-api`, `efi`, `sandbox`, …). */
@Injectable()
export class ProviderAdapters {
  private readonly byName: ReadonlyMap<string, ProviderAdapter>;

  constructor(@Inject(PROVIDER_ADAPTERS) adapters: ProviderAdapter[]) {
    this.byName = new Map(adapters.map((adapter) => [adapter.name, adapter]));
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  find(name: string): ProviderAdapter | undefined {
    return this.byName.get(name);
  }
}

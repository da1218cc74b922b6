import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import type { PaymentProvider } from './payment-provider';

/** Every registered adapter, provided by ProvidersModule. */
export const PAYMENT_PROVIDERS = Symbol('PAYMENT_PROVIDERS');

/** Chooses an adapter by name. */
@Injectable()
export class ProviderRegistry {
  private readonly byName: ReadonlyMap<string, PaymentProvider>;

  constructor(@Inject(PAYMENT_PROVIDERS) providers: PaymentProvider[]) {
    this.byName = new Map(providers.map((provider) => [provider.name, provider]));
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  find(name: string): PaymentProvider | undefined {
    return this.byName.get(name);
  }

  /** The adapter, or NOT_FOUND (an unknown `/webhooks/:provider` is a 404). */
  get(name: string): PaymentProvider {
    const provider = this.byName.get(name);
    if (!provider) throw AppError.notFound(`No provider named "${name}".`);
    return provider;
  }
}

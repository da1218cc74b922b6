import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { GatewayMetrics, ProviderOperation } from '../metrics/gateway-metrics';
import type { PaymentProvider } from './payment-provider';

/** Every registered adapter, provided by ProvidersModule. */
export const PAYMENT_PROVIDERS = Symbol('PAYMENT_PROVIDERS');

/** The adapter methods that reach the provider over the network, and their operation label. */
const TIMED_CALLS: Readonly<Record<string, ProviderOperation>> = { createCharge: 'create_charge', getCharge: 'get_charge', health: 'health' };

/**
 * Chooses an adapter by name. The adapters it hands out are timed: every call that goes to the
 * provider (payments, reconciliation, health) is recorded once in the provider call histogram.
 */
@Injectable()
export class ProviderRegistry {
  private readonly byName: ReadonlyMap<string, PaymentProvider>;

  constructor(@Inject(PAYMENT_PROVIDERS) providers: PaymentProvider[], @Optional() metrics?: GatewayMetrics) {
    this.byName = new Map(providers.map((provider) => [provider.name, metrics ? timed(provider, metrics) : provider]));
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

/**
 * The adapter behind a proxy that times its network calls. A proxy rather than a wrapper object, so
 * the adapter keeps its class; methods run on the adapter itself (its private fields need it).
 * The account label is the provider's name until a provider has several accounts.
 */
function timed(provider: PaymentProvider, metrics: GatewayMetrics): PaymentProvider {
  return new Proxy(provider, {
    get(target, property) {
      // Read on the adapter itself: its getters may use private fields, which the proxy lacks.
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      const operation = typeof property === 'string' ? TIMED_CALLS[property] : undefined;
      if (!operation) return method.bind(target);
      // The timed calls are PaymentProvider's async methods.
      return (...args: unknown[]) => metrics.timeProviderCall(target.name, operation, () => method.apply(target, args) as Promise<unknown>);
    },
  });
}

import type { ProviderContext, ProviderRegistration } from '../provider-registry';
import { MercadoPagoAdapter } from './mercadopago.adapter';

/** Mercado Pago as ProvidersModule registers it: one adapter, no built-in account (its credentials exist only on provider accounts). */
export function mercadoPagoProvider({ config, clock, transport }: ProviderContext): ProviderRegistration {
  return { adapters: [new MercadoPagoAdapter(transport, { clock, timeoutMs: config.upstreamTimeoutMs })] };
}

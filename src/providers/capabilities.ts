import type { ProviderAdapter } from './provider-adapter';
import type { ProviderCapabilities } from './provider-descriptor';

/** The yes-or-no capabilities (`txid` is a choice, read from the descriptor as it is). */
export type Capability = Exclude<keyof ProviderCapabilities, 'txid'>;

/**
 * The optional adapter members each capability brings. An adapter has them exactly when its
 * descriptor declares the capability (capabilities.spec.ts checks every registered adapter).
 */
export const CAPABILITY_MEMBERS = {
  refund: ['refund', 'getRefund'],
  partialRefund: [],
  cancel: ['cancelCharge'],
  registerWebhook: ['registerWebhook'],
  recurring: ['recurring'],
  dueCharges: ['updateCharge'],
  chargeBatches: ['createChargeBatch', 'getChargeBatch'],
} as const satisfies Record<Capability, readonly (keyof ProviderAdapter)[]>;

type MembersOf<K extends Capability> = (typeof CAPABILITY_MEMBERS)[K][number];

/**
 * Whether the adapter's provider can do `capability`, as its descriptor declares: the one way the
 * gateway asks before it uses an optional part of an adapter. It narrows the adapter, so the
 * members the capability brings can be called without another check. No adapter (a provider not
 * registered here) can do nothing.
 */
export function supports<A extends ProviderAdapter, K extends Capability>(adapter: A | undefined, capability: K): adapter is A & Required<Pick<A, MembersOf<K> & keyof A>> {
  return adapter !== undefined && Boolean(adapter.descriptor.capabilities[capability]);
}

import { supports } from './capabilities';
import type { ProviderAdapter } from './provider-adapter';
import type { ProviderCapabilities } from './provider-descriptor';

/** An adapter with every optional member, whose descriptor declares `capabilities`. */
function adapterDeclaring(capabilities: Partial<ProviderCapabilities>): ProviderAdapter {
  const declared: ProviderCapabilities = { refund: false, partialRefund: false, cancel: false, registerWebhook: false, txid: 'gateway', ...capabilities };
  return {
    name: 'limited',
    descriptor: { name: 'limited', label: 'Limited', environments: [], settings: [], credentials: [], oneOf: [], capabilities: declared },
    refund: () => Promise.reject(new Error('not called')),
    getRefund: () => Promise.reject(new Error('not called')),
    cancelCharge: () => Promise.reject(new Error('not called')),
    registerWebhook: () => Promise.reject(new Error('not called')),
    recurring: {} as ProviderAdapter['recurring'],
  } as unknown as ProviderAdapter;
}

describe('supports', () => {
  it('answers what the descriptor declares, whatever members the adapter has', () => {
    const none = adapterDeclaring({});
    for (const capability of ['refund', 'partialRefund', 'cancel', 'registerWebhook', 'recurring'] as const) expect(supports(none, capability)).toBe(false);
    const all = adapterDeclaring({ refund: true, partialRefund: true, cancel: true, registerWebhook: true, recurring: { leadTime: { minDays: 2, maxDays: 10 }, source: 'x' } });
    for (const capability of ['refund', 'partialRefund', 'cancel', 'registerWebhook', 'recurring'] as const) expect(supports(all, capability)).toBe(true);
  });

  it('answers no for a provider that is not registered', () => {
    expect(supports(undefined, 'refund')).toBe(false);
  });

  it('tells a whole-refund provider from one that also refunds in part', () => {
    const whole = adapterDeclaring({ refund: true });
    expect(supports(whole, 'refund')).toBe(true);
    expect(supports(whole, 'partialRefund')).toBe(false);
  });

  it('narrows the adapter, so what a capability brings is called without another check', () => {
    const adapter = adapterDeclaring({ cancel: true });
    // Type-level: cancelCharge is optional on ProviderAdapter and required after the check.
    if (supports(adapter, 'cancel')) expect(typeof adapter.cancelCharge).toBe('function');
    else throw new Error('cancel is declared');
  });
});

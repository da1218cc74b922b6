import { chargeTxid, derivedTxid } from './charge-txid';

describe('chargeTxid', () => {
  const inputs = { claimTxid: 'claimTxid0123456789abcdefghijk', merchantId: 'mer_test', idempotencyKey: 'idem-1', accountId: 'pa_test' };

  it("derives a stored account's txid when the gateway chooses it, the same vector the Pix API adapters have always used", () => {
    expect(chargeTxid({ txid: 'gateway' }, inputs)).toBe('ZZgMmp38r3RLeGeMi5AsaBz8nFn3hwfvP2t');
    expect(derivedTxid('ab', 'c', 'd')).not.toBe(derivedTxid('a', 'bc', 'd'));
  });

  it("keeps the claim's txid for a built-in account, and where the PSP chooses", () => {
    expect(chargeTxid({ txid: 'gateway' }, { ...inputs, accountId: null })).toBe(inputs.claimTxid);
    expect(chargeTxid({ txid: 'provider' }, inputs)).toBe(inputs.claimTxid);
  });
});

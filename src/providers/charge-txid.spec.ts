import { chargeTxid, derivedTxid, TXID } from './charge-txid';

describe('chargeTxid', () => {
  const inputs = { claimTxid: 'claimTxid0123456789abcdefghijk', merchantId: 'mer_test', idempotencyKey: 'idem-1', accountId: 'pa_test' };

  it("derives a stored account's txid when the gateway chooses it, the same vector the Pix API adapters have always used", () => {
    expect(chargeTxid({ txid: 'gateway' }, inputs)).toBe('ZZgMmp38r3RLeGeMi5AsaBz8nFn3hwfvP2t');
  });

  it("keeps the claim's txid for a built-in account", () => {
    expect(chargeTxid({ txid: 'gateway' }, { ...inputs, accountId: null })).toBe(inputs.claimTxid);
    expect(chargeTxid({ txid: 'provider' }, { ...inputs, accountId: null })).toBe(inputs.claimTxid);
  });

  it("derives a stored account's txid where the PSP chooses the Pix txid too: it is the idempotency key sent (Mercado Pago's X-Idempotency-Key)", () => {
    expect(chargeTxid({ txid: 'provider' }, inputs)).toBe('ZZgMmp38r3RLeGeMi5AsaBz8nFn3hwfvP2t');
  });
});

describe('derivedTxid', () => {
  it('is 35 letters and digits, a txid the Pix API takes', () => {
    const txid = derivedTxid('mer_4Fz9', 'order-1234', 'pa_9Qk2');
    expect(txid).toHaveLength(35);
    expect(txid).toMatch(TXID);
  });

  it('is the same for the same merchant, Idempotency-Key and account, so a retry re-sends the same charge', () => {
    expect(derivedTxid('mer_1', 'key', 'pa_1')).toBe(derivedTxid('mer_1', 'key', 'pa_1'));
  });

  it('differs when any of the three differs', () => {
    const base = derivedTxid('mer_1', 'key', 'pa_1');
    expect(new Set([base, derivedTxid('mer_2', 'key', 'pa_1'), derivedTxid('mer_1', 'key2', 'pa_1'), derivedTxid('mer_1', 'key', 'pa_2')]).size).toBe(4);
  });

  it('keeps the three apart: moving characters from one to the next gives another txid', () => {
    expect(derivedTxid('ab', 'c', 'd')).not.toBe(derivedTxid('a', 'bc', 'd'));
    expect(derivedTxid('a', 'b', 'cd')).not.toBe(derivedTxid('a', 'bc', 'd'));
    expect(derivedTxid('a\n1:b', '', 'c')).not.toBe(derivedTxid('a', 'b', 'c'));
  });

  it('is a known value, so a change of the derivation (which would re-charge retried requests) shows here', () => {
    expect(derivedTxid('mer_test', 'idem-1', 'pa_test')).toBe('ZZgMmp38r3RLeGeMi5AsaBz8nFn3hwfvP2t');
  });

  it('takes any Idempotency-Key the API accepts (printable ASCII up to 255) and non-ASCII alike', () => {
    expect(derivedTxid('mer_1', '~'.repeat(255), 'pa_1')).toMatch(TXID);
    expect(derivedTxid('mer_1', 'pedido-ção-✓', 'pa_1')).toMatch(TXID);
  });
});

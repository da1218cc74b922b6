import { PIX_DEVOLUCAO_ID, PIX_TXID, pixDevolucaoId, pixTxid } from './txid';

describe('pixTxid', () => {
  it('is 35 letters and digits, a txid the Pix API takes', () => {
    const txid = pixTxid('mer_4Fz9', 'order-1234', 'pa_9Qk2');
    expect(txid).toHaveLength(35);
    expect(txid).toMatch(PIX_TXID);
  });

  it('is the same for the same merchant, Idempotency-Key and account, so a retry re-sends the same charge', () => {
    expect(pixTxid('mer_1', 'key', 'pa_1')).toBe(pixTxid('mer_1', 'key', 'pa_1'));
  });

  it('differs when any of the three differs', () => {
    const base = pixTxid('mer_1', 'key', 'pa_1');
    expect(new Set([base, pixTxid('mer_2', 'key', 'pa_1'), pixTxid('mer_1', 'key2', 'pa_1'), pixTxid('mer_1', 'key', 'pa_2')]).size).toBe(4);
  });

  it('keeps the three apart: moving characters from one to the next gives another txid', () => {
    expect(pixTxid('ab', 'c', 'd')).not.toBe(pixTxid('a', 'bc', 'd'));
    expect(pixTxid('a', 'b', 'cd')).not.toBe(pixTxid('a', 'bc', 'd'));
    expect(pixTxid('a\n1:b', '', 'c')).not.toBe(pixTxid('a', 'b', 'c'));
  });

  it('is a known value, so a change of the derivation (which would re-charge retried requests) shows here', () => {
    expect(pixTxid('mer_test', 'idem-1', 'pa_test')).toBe('ZZgMmp38r3RLeGeMi5AsaBz8nFn3hwfvP2t');
  });

  it('takes any Idempotency-Key the API accepts (printable ASCII up to 255) and non-ASCII alike', () => {
    expect(pixTxid('mer_1', '~'.repeat(255), 'pa_1')).toMatch(PIX_TXID);
    expect(pixTxid('mer_1', 'pedido-ção-✓', 'pa_1')).toMatch(PIX_TXID);
  });
});

describe('pixDevolucaoId', () => {
  it("is the gateway's refund id without its prefix's underscore", () => {
    expect(pixDevolucaoId('ref_4Fz9Qk2Lm8Zp0Rt5Vw7Yb4Nc')).toBe('ref4Fz9Qk2Lm8Zp0Rt5Vw7Yb4Nc');
  });

  it('keeps an id that already is one', () => {
    expect(pixDevolucaoId('D1234abc')).toBe('D1234abc');
  });

  it('hashes anything else into 35 letters and digits, the same every time', () => {
    const id = pixDevolucaoId('refund/with spaces and a very long tail that is over thirty-five');
    expect(id).toMatch(PIX_DEVOLUCAO_ID);
    expect(id).toHaveLength(35);
    expect(pixDevolucaoId('refund/with spaces and a very long tail that is over thirty-five')).toBe(id);
    expect(pixDevolucaoId('ref_x/y')).toMatch(PIX_DEVOLUCAO_ID);
  });
});

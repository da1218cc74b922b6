import { PIX_DEVOLUCAO_ID, pixDevolucaoId } from './txid';

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

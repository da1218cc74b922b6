import { brCodeCrc } from './br-code';

describe('brCodeCrc', () => {
  it('is CRC-16/CCITT-FALSE in four upper-case hex digits', () => {
    // The algorithm's published check value, and its initial value for no input.
    expect(brCodeCrc('123456789')).toBe('29B1');
    expect(brCodeCrc('')).toBe('FFFF');
  });
});

import { parsePix } from 'pix-utils';
import { crc16Ccitt, emvFields, hasValidCrc } from '../testing/emv';
import { SANDBOX_MERCHANT_CITY, SANDBOX_MERCHANT_NAME, SANDBOX_PIX_KEY, sandboxBrCode } from './br-code';

/** A charge's txid, longer than the 25 characters the manual gives 62-05: the sandbox writes it whole. */
const REFERENCE = 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2Ex';

describe('sandbox BR Code', () => {
  it('computes CRC16-CCITT like the BR Code manual (check value of "123456789" is 29B1)', () => {
    expect(crc16Ccitt('123456789')).toBe('29B1');
  });

  it.each([
    [1, '0.01'],
    [30, '0.30'],
    [1050, '10.50'],
    [100_000_000, '1000000.00'],
    [999_999_999_999, '9999999999.99'],
  ])('is a valid static Pix code for %i centavos (field 54 = %s)', (cents, amount) => {
    const code = sandboxBrCode(REFERENCE, cents);
    const fields = emvFields(code);
    expect(fields.get('00')).toBe('01');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe(amount);
    expect(fields.get('58')).toBe('BR');
    expect(emvFields(fields.get('62')!).get('05')).toBe(REFERENCE);
    const account = emvFields(fields.get('26')!);
    expect(account.get('00')).toBe('br.gov.bcb.pix');
    expect(account.get('01')).toBe(SANDBOX_PIX_KEY);
    // Field 63 is last and is the CRC of everything before its value, computed independently.
    expect(hasValidCrc(code)).toBe(true);
    expect(code.slice(-4)).toBe(crc16Ccitt(code.slice(0, -4)));
  });

  it('parses back with pix-utils to the same amount, key and merchant', () => {
    const parsed = parsePix(sandboxBrCode(REFERENCE, 123456));
    expect(parsed).toMatchObject({
      type: 'STATIC',
      transactionAmount: 1234.56,
      pixKey: SANDBOX_PIX_KEY,
      merchantName: SANDBOX_MERCHANT_NAME,
      merchantCity: SANDBOX_MERCHANT_CITY,
      txid: REFERENCE,
    });
  });

  it('detects a tampered amount through the CRC', () => {
    const code = sandboxBrCode(REFERENCE, 1050);
    expect(hasValidCrc(code.replace('540510.50', '540519.50'))).toBe(false);
  });
});

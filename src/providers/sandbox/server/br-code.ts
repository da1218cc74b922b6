import { createStaticPix, hasError } from 'pix-utils';

/**
 * The sandbox's receiving account. A fixed random EVP key (the UUID kind of Pix key), so codes are
 * well-formed and recognisably the sandbox's, yet point at no real account.
 */
export const SANDBOX_PIX_KEY = '3f8e2b7a-9c41-4d5e-8a26-71b0c4d9e513';
export const SANDBOX_MERCHANT_NAME = 'PIX GATEWAY SANDBOX';
export const SANDBOX_MERCHANT_CITY = 'SAO PAULO';
/** BR Code field 62-05 (reference label) holds at most 25 characters, shorter than a Pix txid. */
export const BR_CODE_REFERENCE_LENGTH = 25;

/** A static BR Code ("Pix copia e cola", EMV MPM with CRC16) for `amountCents` on the sandbox key. */
export function sandboxBrCode(reference: string, amountCents: number): string {
  const pix = createStaticPix({
    merchantName: SANDBOX_MERCHANT_NAME,
    merchantCity: SANDBOX_MERCHANT_CITY,
    pixKey: SANDBOX_PIX_KEY,
    txid: reference,
    // pix-utils writes the amount with toFixed(2), which is exact for whole centavos.
    transactionAmount: amountCents / 100,
  });
  if (hasError(pix)) throw new Error(`pix-utils refused the sandbox BR Code: ${pix.message}`);
  return pix.toBRCode();
}

import { createDynamicPix, createRecurrencePix, createStaticPix, hasError } from 'pix-utils';
import { brCodeCrc } from '../domain/br-code';

/**
 * The sandbox's receiving account. A fixed random EVP key (the UUID kind of Pix key), so codes are
 * well-formed and recognisably the sandbox's, yet point at no real account.
 */
export const SANDBOX_PIX_KEY = '3f8e2b7a-9c41-4d5e-8a26-71b0c4d9e513';
export const SANDBOX_MERCHANT_NAME = 'PIX GATEWAY SANDBOX';
export const SANDBOX_MERCHANT_CITY = 'SAO PAULO';

/**
 * A static BR Code ("Pix copia e cola", EMV MPM with CRC16) for `amountCents` on the sandbox key,
 * whose field 62-05 is the charge's txid.
 *
 * The BR Code manual caps 62-05 at 25 characters, shorter than a charge's txid (26 to 35), and a
 * real PSP's code for a charge is dynamic: it carries a location URL and `***`, the txid being in
 * the payload behind the URL. The sandbox serves no such location, so it writes the whole txid in
 * 62-05 (an EMV length field holds up to 99): whoever reads the code (pix-utils, a merchant's test)
 * finds the payment's `pix.txid` in it, rather than a reference of the sandbox's own.
 */
export function sandboxBrCode(txid: string, amountCents: number): string {
  const pix = createStaticPix({
    merchantName: SANDBOX_MERCHANT_NAME,
    merchantCity: SANDBOX_MERCHANT_CITY,
    pixKey: SANDBOX_PIX_KEY,
    // pix-utils refuses a reference longer than 25: the txid replaces it below.
    txid: '***',
    // pix-utils writes the amount with toFixed(2), which is exact for whole centavos.
    transactionAmount: amountCents / 100,
  });
  if (hasError(pix)) throw new Error(`pix-utils refused the sandbox BR Code: ${pix.message}`);
  return withReference(pix.toBRCode(), txid);
}

/** The code with field 62 holding only 05 = `reference`, and its CRC (field 63, last) computed again. */
function withReference(code: string, reference: string): string {
  if (!/^[a-zA-Z0-9]{1,99}$/.test(reference)) throw new Error('A BR Code reference is 1 to 99 letters or digits');
  let out = '';
  let at = 0;
  while (at < code.length) {
    const start = at;
    const id = code.slice(at, at + 2);
    at += 4 + Number(code.slice(at + 2, at + 4));
    // 62 is written again below, 63 (the CRC) computed again.
    if (id !== '62' && id !== '63') out += code.slice(start, at);
  }
  const body = `${out}${tlv('62', tlv('05', reference))}6304`;
  return body + brCodeCrc(body);
}

function tlv(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/**
 * Where the sandbox's codes say a payload lives. The `.invalid` top-level domain is reserved
 * (RFC 2606) so no app can fetch it: the sandbox serves no location, and its codes name one only so
 * that they read as a PSP's do.
 */
export const SANDBOX_LOCATION_HOST = 'pix.sandbox.invalid';

/**
 * The authorization BR Code of a recurrence: dynamic, its Pix Automático location (field 80,
 * `br.gov.bcb.pix` and the URL in 25) naming the recurrence, as pix-utils writes one
 * (`createRecurrencePix`, `createDynamicPix` with `urlRec`: https://github.com/thalesog/pix-utils).
 * With `firstPaymentTxid`, the composite code of the first-payment journeys: field 26 also names the
 * location of that charge, which the same scan pays: `/cob/<txid>` for an immediate charge,
 * `/cobv/<txid>` for a due-date charge (as sandboxDueBrCode names it).
 */
export function sandboxRecurrenceBrCode(recurrenceId: string, firstPaymentTxid: string | null, firstPaymentKind: 'cob' | 'cobv' = 'cob'): string {
  const urlRec = `${SANDBOX_LOCATION_HOST}/rec/${recurrenceId}`;
  const base = { merchantName: SANDBOX_MERCHANT_NAME, merchantCity: SANDBOX_MERCHANT_CITY, urlRec };
  const pix = firstPaymentTxid === null ? createRecurrencePix(base) : createDynamicPix({ ...base, url: `${SANDBOX_LOCATION_HOST}/${firstPaymentKind}/${firstPaymentTxid}` });
  if (hasError(pix)) throw new Error(`pix-utils refused the sandbox recurrence BR Code: ${pix.message}`);
  return pix.toBRCode();
}

/**
 * A due-date charge's BR Code: dynamic, its field 26 naming the charge's location,
 * `pix.sandbox.invalid/cobv/<txid>`, and no amount, as a real PSP's code for a due-date charge points
 * at a payload that carries the amount owed on the day it is read. So the code stays the same when
 * the charge's amount or terms change (`PATCH /charges/:id`).
 */
export function sandboxDueBrCode(txid: string): string {
  const pix = createDynamicPix({ merchantName: SANDBOX_MERCHANT_NAME, merchantCity: SANDBOX_MERCHANT_CITY, url: `${SANDBOX_LOCATION_HOST}/cobv/${txid}` });
  if (hasError(pix)) throw new Error(`pix-utils refused the sandbox due-date BR Code: ${pix.message}`);
  return pix.toBRCode();
}

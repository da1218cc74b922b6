import { createHash } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The length of a txid made here: the standard's longest (26 to 35 of [a-zA-Z0-9]). */
export const PIX_TXID_LENGTH = 35;
/** A txid as the Pix API takes it in `PUT /cob/{txid}`. */
export const PIX_TXID = /^[a-zA-Z0-9]{26,35}$/;
/** A devolução id as the Pix API takes it in `PUT /pix/{e2eid}/devolucao/{id}`. */
export const PIX_DEVOLUCAO_ID = /^[a-zA-Z0-9]{1,35}$/;

/** `length` base62 digits of a SHA-256 over the parts, each prefixed with its length so no two lists of parts collide. */
function digest62(domain: string, parts: readonly string[], length: number): string {
  const hash = createHash('sha256').update(domain);
  for (const part of parts) hash.update(`\n${Buffer.byteLength(part)}:`).update(part);
  let n = BigInt(`0x${hash.digest('hex')}`);
  let out = '';
  // 35 base62 digits use 208 of the 256 bits; the rest are dropped, never padded.
  for (let i = 0; i < length; i++) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return out;
}

/**
 * The txid of the charge a merchant creates with an Idempotency-Key on an account: the same three
 * always give the same txid, so a retry (after a timeout, a crash, a lost answer) re-sends the
 * `PUT /cob/{txid}` of the first attempt, which the PSP answers with the one charge it holds.
 * 35 base62 characters of a SHA-256 over the three (no secret is needed: a txid is not one, and the
 * gateway's key is stored with the merchant). The parts are length-prefixed, so ("a", "bc") and
 * ("ab", "c") do not meet.
 */
export function pixTxid(merchantId: string, idempotencyKey: string, accountId: string): string {
  return digest62('pix-gateway/txid/v1', [merchantId, idempotencyKey, accountId], PIX_TXID_LENGTH);
}

/**
 * The devolução id of a gateway refund: the refund id when it already is one (`ref_…` without its
 * underscore), else 35 base62 characters of its hash. Deterministic, so a retried refund re-sends
 * the same `PUT /pix/{e2eid}/devolucao/{id}`.
 */
export function pixDevolucaoId(refundId: string): string {
  if (PIX_DEVOLUCAO_ID.test(refundId)) return refundId;
  const prefixed = /^([a-z]{2,5})_([a-zA-Z0-9]+)$/.exec(refundId);
  const joined = prefixed ? `${prefixed[1]}${prefixed[2]}` : '';
  return PIX_DEVOLUCAO_ID.test(joined) ? joined : digest62('pix-gateway/devolucao/v1', [refundId], PIX_TXID_LENGTH);
}

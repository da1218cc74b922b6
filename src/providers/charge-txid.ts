import { createHash } from 'node:crypto';
import type { ProviderCapabilities } from './provider-descriptor';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The standard's longest txid: 35 of [a-zA-Z0-9]. */
export const TXID_LENGTH = 35;

/** A txid the Pix standard takes: 26 to 35 of [a-zA-Z0-9]; the ones made here are 35 long. */
export const TXID = /^[a-zA-Z0-9]{26,35}$/;

/** `length` base62 digits of a SHA-256 over the parts, each prefixed with its length so no two lists of parts collide. */
export function digest62(domain: string, parts: readonly string[], length: number): string {
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
 * The txid of the charge a merchant creates with an Idempotency-Key through a stored account: the
 * same three always give the same txid, so a retry (after a timeout, a crash, a lost answer, even a
 * lost idempotency record) asks the PSP for the charge it already holds. No secret is needed: a txid
 * is not one. The parts are length-prefixed, so ("a", "bc") and ("ab", "c") do not meet.
 */
export function derivedTxid(merchantId: string, idempotencyKey: string, accountId: string): string {
  return digest62('pix-gateway/txid/v1', [merchantId, idempotencyKey, accountId], TXID_LENGTH);
}

export interface TxidInputs {
  /** The idempotency claim's txid: random, kept with the claim for every retry. */
  claimTxid: string;
  merchantId: string;
  idempotencyKey: string;
  /** The stored account charged through; null for a provider's built-in account. */
  accountId: string | null;
}

/**
 * The txid a charge is created with. A stored account's is derived from what identifies the
 * request, whoever chooses the Pix txid: where the gateway chooses it (`txid: 'gateway'`) it is the
 * PSP's idempotency key; where the PSP chooses it (Mercado Pago) it is the gateway's reference and
 * the idempotency key the adapter sends (`X-Idempotency-Key`), so a retry after a lost idempotency
 * record still finds the one charge. A built-in account keeps the claim's.
 */
export function chargeTxid(capabilities: Pick<ProviderCapabilities, 'txid'>, inputs: TxidInputs): string {
  switch (capabilities.txid) {
    case 'gateway':
    case 'provider':
      return inputs.accountId === null ? inputs.claimTxid : derivedTxid(inputs.merchantId, inputs.idempotencyKey, inputs.accountId);
  }
}

import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of base62 from the CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62]; // 248 = 4 * 62: reject the biased tail
      if (out.length === length) break;
    }
  }
  return out;
}

/** Prefixed identifiers (Stripe-style), readable in logs and support tickets: `pay_…`, `mer_…`. */
export type IdPrefix = 'mer' | 'key' | 'pay' | 'evt' | 'dlv' | 'att' | 'ses' | 'pa' | 'ref' | 'rec' | 'rch';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

export function hasIdShape(value: string, prefix: IdPrefix): boolean {
  return value.length === prefix.length + 25 && value.startsWith(`${prefix}_`) && /^[A-Za-z0-9]+$/.test(value.slice(prefix.length + 1));
}

import { randomFillSync } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * CSPRNG bytes drawn 4 KB at a time, as Node buffers randomUUID's: one call into the generator per
 * ~80 identifiers rather than one per identifier (a callback makes two or three; the calls were 2%
 * of its CPU, docs/performance.md). Each byte is used once.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

/** `length` characters of base62 from the CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62]; // 248 = 4 * 62: reject the biased tail
  }
  return out;
}

/** Prefixed identifiers (Stripe-style), readable in logs and support tickets: `pay_…`, `mer_…`. */
export type IdPrefix = 'mer' | 'key' | 'pay' | 'evt' | 'dlv' | 'att' | 'ses' | 'pa' | 'ref' | 'rec' | 'rch' | 'bat' | 'plink';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

export function hasIdShape(value: string, prefix: IdPrefix): boolean {
  return value.length === prefix.length + 25 && value.startsWith(`${prefix}_`) && /^[A-Za-z0-9]+$/.test(value.slice(prefix.length + 1));
}

/**
 * A public page's token (`/pay/<token>`, docs/checkout.md): 24 base62 characters, about 143 random
 * bits, unrelated to any id, so that knowing a payment's id does not open its page and no page can
 * be guessed.
 */
export function newCheckoutToken(): string {
  return randomBase62(24);
}

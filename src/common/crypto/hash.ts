import { createHash, timingSafeEqual } from 'node:crypto';

export function sha256(value: string | Buffer): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time equality of two strings of any length (compares their SHA-256 digests). */
export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

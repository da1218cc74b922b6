import { randomBase62 } from '../common/ids';
import { sha256 } from '../common/crypto/hash';

export const API_KEY_PREFIX = 'mk_live_';
export const API_KEY_DISPLAY_LENGTH = 12;
const KEY_SHAPE = /^mk_live_[0-9A-Za-z]{32,64}$/;

/**
 * A merchant API key: `mk_live_` + 32 base62 characters (~190 bits). Only its SHA-256 is stored:
 * the key is random and long, so a slow password hash would add latency to every request and no
 * security; the first 12 characters are kept for display.
 */
export function generateApiKey(): { key: string; hash: Buffer; prefix: string } {
  const key = `${API_KEY_PREFIX}${randomBase62(32)}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, API_KEY_DISPLAY_LENGTH) };
}

export function hashApiKey(key: string): Buffer {
  return sha256(key);
}

/** Cheap shape check before touching the database. */
export function looksLikeApiKey(value: string): boolean {
  return KEY_SHAPE.test(value);
}

import { sha256 } from '../common/crypto/hash';

/** JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2, "a":1}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What "the same request" means for an Idempotency-Key: same method, path and (canonical) body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return sha256(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`).toString('base64url');
}

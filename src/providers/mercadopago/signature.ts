import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Mercado Pago's notification signature (docs/providers.md, Mercado Pago, with the pages it cites):
 * `x-signature: ts=<ts>,v1=<hex>` where v1 is HMAC-SHA256, keyed with the application's secret
 * signature, over the manifest `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`. `data.id` is the
 * query string's (lower-cased when alphanumeric); a part whose value is missing is left out of the
 * manifest. Mercado Pago's pages have shown `ts` in seconds and its SDK compares it as
 * milliseconds: either is accepted, within the tolerance.
 */

export interface SignatureHeader {
  ts: string;
  v1: string;
}

export type SignatureFailure = 'missing' | 'malformed' | 'mismatch' | 'stale';

/** The default distance between `ts` and now that is accepted, either way (5 minutes). */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** `ts=…,v1=…` in any order, with spaces around the parts; null when it has no `ts` or no `v1`. */
export function parseSignatureHeader(header: string): SignatureHeader | null {
  let ts: string | undefined;
  let v1: string | undefined;
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts') ts = value;
    else if (key === 'v1') v1 = value;
  }
  if (!ts || !v1 || !/^\d{1,16}$/.test(ts)) return null;
  return { ts, v1 };
}

/** `data.id` as the manifest takes it: lower-cased when it is alphanumeric, as it is otherwise. */
export function manifestId(dataId: string): string {
  return /^[a-zA-Z0-9]+$/.test(dataId) ? dataId.toLowerCase() : dataId;
}

/** The signed text: each part present, in order, each ended by `;`. */
export function signatureManifest(parts: { dataId: string | null; requestId: string | null; ts: string }): string {
  let manifest = '';
  if (parts.dataId) manifest += `id:${manifestId(parts.dataId)};`;
  if (parts.requestId) manifest += `request-id:${parts.requestId};`;
  return `${manifest}ts:${parts.ts};`;
}

/** `ts` as milliseconds: 13 digits or more is milliseconds, fewer is seconds. */
export function timestampMs(ts: string): number {
  const n = Number(ts);
  return ts.length >= 13 ? n : n * 1000;
}

export interface VerifyInput {
  signature: string | null;
  requestId: string | null;
  dataId: string | null;
  secret: string;
  nowMs: number;
  toleranceMs?: number;
}

/** Null when the signature is right and fresh; otherwise why not. Constant-time over the digests. */
export function verifySignature(input: VerifyInput): SignatureFailure | null {
  if (!input.signature) return 'missing';
  const header = parseSignatureHeader(input.signature);
  if (!header || !/^[0-9a-f]{64}$/i.test(header.v1)) return 'malformed';
  const expected = createHmac('sha256', input.secret)
    .update(signatureManifest({ dataId: input.dataId, requestId: input.requestId, ts: header.ts }))
    .digest();
  if (!timingSafeEqual(expected, Buffer.from(header.v1, 'hex'))) return 'mismatch';
  if (Math.abs(input.nowMs - timestampMs(header.ts)) > (input.toleranceMs ?? SIGNATURE_TOLERANCE_MS)) return 'stale';
  return null;
}

import { createHmac } from 'node:crypto';
import { manifestId, parseSignatureHeader, signatureManifest, timestampMs, verifySignature } from './signature';

const SECRET = 'mp-webhook-secret-0123456789';
const hmac = (manifest: string, secret = SECRET) => createHmac('sha256', secret).update(manifest).digest('hex');

describe("Mercado Pago's notification signature", () => {
  const nowMs = Date.UTC(2026, 0, 15, 12, 0, 0);
  const tsSeconds = String(nowMs / 1000);
  const signed = (manifest: string, ts = tsSeconds) => `ts=${ts},v1=${hmac(manifest)}`;

  it('builds the manifest with every part, each ended by ";"', () => {
    expect(signatureManifest({ dataId: '123456', requestId: 'req-1', ts: '1704908010' })).toBe('id:123456;request-id:req-1;ts:1704908010;');
  });

  it('leaves out a part with no value', () => {
    expect(signatureManifest({ dataId: null, requestId: 'req-1', ts: '1' })).toBe('request-id:req-1;ts:1;');
    expect(signatureManifest({ dataId: '9', requestId: null, ts: '1' })).toBe('id:9;ts:1;');
    expect(signatureManifest({ dataId: null, requestId: null, ts: '1' })).toBe('ts:1;');
  });

  it('lower-cases an alphanumeric data.id, and leaves any other as it is', () => {
    expect(manifestId('ABC123def')).toBe('abc123def');
    expect(manifestId('123456')).toBe('123456');
    expect(manifestId('ORD-01ABC')).toBe('ORD-01ABC');
  });

  it('reads ts and v1 in any order, with spaces', () => {
    expect(parseSignatureHeader('v1=abc, ts=123')).toEqual({ ts: '123', v1: 'abc' });
    expect(parseSignatureHeader('ts=123')).toBeNull();
    expect(parseSignatureHeader('v1=abc')).toBeNull();
    expect(parseSignatureHeader('ts=12a,v1=abc')).toBeNull();
  });

  it('takes ts in seconds or in milliseconds', () => {
    expect(timestampMs('1704908010')).toBe(1704908010_000);
    expect(timestampMs('1704908010123')).toBe(1704908010123);
  });

  it('accepts a right, fresh signature; ts in seconds or milliseconds', () => {
    const manifest = (ts: string) => `id:123456;request-id:req-1;ts:${ts};`;
    expect(verifySignature({ signature: signed(manifest(tsSeconds)), requestId: 'req-1', dataId: '123456', secret: SECRET, nowMs })).toBeNull();
    const tsMillis = String(nowMs - 1234);
    expect(verifySignature({ signature: signed(manifest(tsMillis), tsMillis), requestId: 'req-1', dataId: '123456', secret: SECRET, nowMs })).toBeNull();
  });

  it('verifies over the lower-cased data.id, and without the parts that are missing', () => {
    expect(verifySignature({ signature: signed(`id:abc123;request-id:r;ts:${tsSeconds};`), requestId: 'r', dataId: 'ABC123', secret: SECRET, nowMs })).toBeNull();
    expect(verifySignature({ signature: signed(`request-id:r;ts:${tsSeconds};`), requestId: 'r', dataId: null, secret: SECRET, nowMs })).toBeNull();
    expect(verifySignature({ signature: signed(`id:1;ts:${tsSeconds};`), requestId: null, dataId: '1', secret: SECRET, nowMs })).toBeNull();
  });

  it('refuses what is missing, malformed, forged, signed with another secret, or stale', () => {
    const manifest = `id:1;request-id:r;ts:${tsSeconds};`;
    const base = { requestId: 'r', dataId: '1', secret: SECRET, nowMs };
    expect(verifySignature({ ...base, signature: null })).toBe('missing');
    expect(verifySignature({ ...base, signature: 'sha256=abc' })).toBe('malformed');
    expect(verifySignature({ ...base, signature: `ts=${tsSeconds},v1=zz` })).toBe('malformed');
    expect(verifySignature({ ...base, dataId: '2', signature: signed(manifest) })).toBe('mismatch');
    expect(verifySignature({ ...base, requestId: 'other', signature: signed(manifest) })).toBe('mismatch');
    expect(verifySignature({ ...base, signature: `ts=${tsSeconds},v1=${hmac(manifest, 'another-secret')}` })).toBe('mismatch');
    const old = String(nowMs / 1000 - 301);
    expect(verifySignature({ ...base, signature: signed(`id:1;request-id:r;ts:${old};`, old) })).toBe('stale');
    const future = String(nowMs + 301_000);
    expect(verifySignature({ ...base, signature: signed(`id:1;request-id:r;ts:${future};`, future) })).toBe('stale');
    expect(verifySignature({ ...base, toleranceMs: 600_000, signature: signed(`id:1;request-id:r;ts:${old};`, old) })).toBeNull();
  });
});

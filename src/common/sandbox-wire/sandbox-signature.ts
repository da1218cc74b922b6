import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The sandbox's webhook signature (docs/api.md, The sandbox signature scheme):
 * `X-Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Signed over the exact bytes sent, so a verifier must check the raw body, never a re-serialised one.
 */
export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
/** Signatures whose timestamp is further than this from now are refused (replay window). */
export const SANDBOX_SIGNATURE_TOLERANCE_SECONDS = 300;

const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const TIMESTAMP = /^\d{1,12}$/;

function mac(secret: string, timestamp: string, rawBody: Buffer | string): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
}

export function signSandboxPayload(secret: string, rawBody: Buffer | string, timestampSeconds: number): string {
  const t = String(Math.floor(timestampSeconds));
  return `t=${t},v1=${mac(secret, t, rawBody).toString('hex')}`;
}

/**
 * True when `header` carries exactly one timestamp within the tolerance and a v1 signature of
 * `rawBody` under `secret`. Several v1 entries are allowed (secret rotation); any match is enough.
 */
export function verifySandboxSignature(header: string | string[] | undefined, rawBody: Buffer, secret: string, nowSeconds: number = Date.now() / 1000): boolean {
  if (typeof header !== 'string') return false;
  let timestamp: string | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      // Two timestamps would let an attacker pick which one a lenient parser reads.
      if (timestamp !== undefined || !TIMESTAMP.test(value)) return false;
      timestamp = value;
    } else if (key === 'v1' && HEX_SHA256.test(value)) {
      candidates.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > SANDBOX_SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = mac(secret, timestamp, rawBody);
  let ok = false;
  // Every candidate is compared, so the time taken does not tell which one (if any) matched.
  for (const candidate of candidates) ok = timingSafeEqual(candidate, expected) || ok;
  return ok;
}

import { randomBytes } from 'node:crypto';

/** The value of `webhook_signing_secret` that asks the gateway to make a secret (returned once). */
export const GENERATE_SECRET = 'generate';
export const SIGNING_SECRET_PREFIX = 'whsec_';

/** 256 bits: the key size of HMAC-SHA256, inside the 24–64 bytes Standard Webhooks asks for. */
const GENERATED_SECRET_BYTES = 32;
const WHSEC_MIN_BYTES = 24;
const WHSEC_MAX_BYTES = 64;
export const PLAIN_SECRET_MIN_LENGTH = 16;
export const PLAIN_SECRET_MAX_LENGTH = 256;

/** Strict, padded standard base64: what every Standard Webhooks library decodes the same way. */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PRINTABLE_NO_SPACE = /^[\x21-\x7e]+$/;

/**
 * A new signing secret, `whsec_<base64 of 32 random bytes>`: the form the Standard Webhooks
 * libraries take as is, so a merchant verifies with `new Webhook(secret)`.
 */
export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(GENERATED_SECRET_BYTES).toString('base64')}`;
}

/**
 * Why a merchant-chosen secret is unusable, or null when it is fine. A `whsec_` secret's key is its
 * decoded base64 (as in every Standard Webhooks library), so it must be valid base64 of 24–64 bytes; any other secret
 * is used as UTF-8 bytes and must be 16–256 printable ASCII characters (no spaces, which copy-paste
 * tends to add or drop).
 */
export function signingSecretProblem(secret: string): string | null {
  if (secret.startsWith(SIGNING_SECRET_PREFIX)) {
    const encoded = secret.slice(SIGNING_SECRET_PREFIX.length);
    if (!STRICT_BASE64.test(encoded) || encoded === '') return 'a whsec_ secret must be whsec_ followed by standard, padded base64';
    const bytes = Buffer.from(encoded, 'base64').length;
    if (bytes < WHSEC_MIN_BYTES || bytes > WHSEC_MAX_BYTES) return `a whsec_ secret must encode ${WHSEC_MIN_BYTES} to ${WHSEC_MAX_BYTES} bytes (it encodes ${bytes})`;
    return null;
  }
  if (secret.length < PLAIN_SECRET_MIN_LENGTH || secret.length > PLAIN_SECRET_MAX_LENGTH) {
    return `webhook_signing_secret must be "${GENERATE_SECRET}", null, or ${PLAIN_SECRET_MIN_LENGTH} to ${PLAIN_SECRET_MAX_LENGTH} characters`;
  }
  if (!PRINTABLE_NO_SPACE.test(secret)) return 'webhook_signing_secret must be printable ASCII without spaces';
  return null;
}

import { Webhook } from 'standardwebhooks';
import { SIGNING_SECRET_PREFIX } from '../merchants/signing-secret';

/**
 * The HMAC key of a merchant's signing secret: the decoded base64 of a
 * `whsec_…` secret (the form the gateway generates), otherwise the secret's UTF-8 bytes.
 *
 * The library alone would get the second case wrong: given a string without the prefix it still
 * base64-decodes it, and its `format: "raw"` string path takes UTF-16 code units, not UTF-8. So
 * the key is always computed here and handed over as bytes.
 */
export function signingKey(secret: string): Uint8Array {
  if (secret.startsWith(SIGNING_SECRET_PREFIX)) return new Uint8Array(Buffer.from(secret.slice(SIGNING_SECRET_PREFIX.length), 'base64'));
  return new Uint8Array(Buffer.from(secret, 'utf8'));
}

/** Signs deliveries with the Standard Webhooks library, so what we send is what merchants' libraries verify. */
export class WebhookSigner {
  private readonly webhook: Webhook;

  constructor(secret: string) {
    this.webhook = new Webhook(signingKey(secret), { format: 'raw' });
  }

  /** `v1,<base64 HMAC-SHA256(key, "<id>.<unix seconds>.<body>")>` over exactly the bytes sent. */
  sign(webhookId: string, timestamp: Date, body: string): string {
    return this.webhook.sign(webhookId, timestamp, body);
  }
}

import { Webhook } from 'standardwebhooks';
import { PixGatewayWebhookError } from './errors.js';
import type { Webhooks } from './generated/types.gen.js';

/**
 * An event the gateway sends the merchant's `webhook_url` (docs/webhooks.md, Events): the union of
 * the document's `webhooks` payloads, told apart by `event`.
 */
export type WebhookEvent = Webhooks['body'];

/** The request's headers, as Node's `req.headers` or a fetch `Headers` hands them over. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SECRET_PREFIX = 'whsec_';
const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * Checks a delivery's Standard Webhooks signature over the raw body, exactly as received (never
 * parsed and serialised again), and its timestamp (5 minutes either way), then returns the event.
 * `secret` is the merchant's signing secret: a `whsec_…` secret is the base64 of the key, any other
 * is used as its UTF-8 bytes, as the gateway signs (src/deliveries/webhook-signer.ts in its repository).
 * Throws PixGatewayWebhookError when anything does not check out.
 */
export function verifyWebhook(payload: string, headers: WebhookHeaders, secret: string): WebhookEvent {
  const key = secret.startsWith(SECRET_PREFIX) ? secret : new TextEncoder().encode(secret);
  const webhook = typeof key === 'string' ? new Webhook(key) : new Webhook(key, { format: 'raw' });
  const signature = signatureHeaders(headers);
  let event: unknown;
  try {
    event = webhook.verify(payload, signature);
  } catch (error) {
    throw new PixGatewayWebhookError(`The webhook does not verify: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (typeof event !== 'object' || event === null || typeof (event as { event?: unknown }).event !== 'string') {
    throw new PixGatewayWebhookError('The webhook verifies but its body is not an event (no "event" field)');
  }
  return event as WebhookEvent;
}

/** The three `webhook-*` headers, whatever the case or shape they came in. */
function signatureHeaders(headers: WebhookHeaders): Record<string, string> {
  const read = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return Array.isArray(entry) ? entry[0] : entry;
  };
  const found: Record<string, string> = {};
  for (const name of SIGNATURE_HEADERS) {
    const value = read(name);
    if (value === undefined) throw new PixGatewayWebhookError(`The webhook has no ${name} header: it is not signed`);
    found[name] = value;
  }
  return found;
}

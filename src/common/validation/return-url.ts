import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { MAX_WEBHOOK_URL_LENGTH, parseWebhookUrl, WebhookUrlRejectedError } from '../net/webhook-url-policy';

/** Hosts a payer's browser may be sent back to over plain http: the merchant's own machine in development. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `value` cannot be where a checkout page sends the payer back (docs/checkout.md), or null: an
 * absolute https URL (http only on localhost), with no user name or password, spaces or control
 * characters, at most MAX_WEBHOOK_URL_LENGTH characters: the webhook URL's shape rules. The gateway
 * never calls it, so its address is not resolved.
 */
export function returnUrlProblem(value: unknown, field: string): string | null {
  if (typeof value !== 'string') return `${field} must be a URL`;
  try {
    const url = parseWebhookUrl(value, { allowPrivate: true });
    if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) return `${field} must use https (http only on localhost)`;
    return null;
  } catch (error) {
    if (error instanceof WebhookUrlRejectedError) return `${field} ${error.message}`;
    throw error;
  }
}

export function IsReturnUrl(field = 'returnUrl'): PropertyDecorator {
  return applyDecorators(
    ValidateBy({
      name: 'isReturnUrl',
      validator: { validate: (value) => returnUrlProblem(value, field) === null, defaultMessage: (args) => returnUrlProblem(args?.value, field) ?? `${field} is invalid` },
    }),
    ApiProperty({ format: 'uri', maxLength: MAX_WEBHOOK_URL_LENGTH, pattern: '^https?://' }),
  );
}

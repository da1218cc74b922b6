import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidateIf } from 'class-validator';
import { MAX_WEBHOOK_URL_LENGTH } from '../../common/net/webhook-url-policy';

/**
 * Field rules shared by create and update, one message per bad field. class-validator's
 * @IsOptional() lets `null` through as well as a missing field, but here null means something
 * ("remove the webhook URL") for some fields and is an error for others; so presence is decided
 * with @ValidateIf instead. Checks that need the database, DNS or the provider registry (URL
 * policy, secret format, provider name) are made by the service.
 */
const present = ValidateIf((_object, value) => value !== undefined);
const presentAndNotNull = ValidateIf((_object, value) => value !== undefined && value !== null);
const trim = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/** A validator whose message is the problem `check` finds (null = valid): one message per field. */
export function Rule(name: string, check: (value: unknown) => string | null): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value) => check(value) === null,
      defaultMessage: (args) => check(args?.value) ?? 'is invalid',
    },
  });
}

function nameProblem(value: unknown): string | null {
  if (value === undefined || value === null) return 'name is required';
  if (typeof value !== 'string') return 'name must be a string';
  if (value.length < 1 || value.length > 200) return 'name must be 1 to 200 characters';
  if (/[\x00-\x1f\x7f]/.test(value)) return 'name must not contain control characters';
  return null;
}

const stringOrNull = (field: string, maxLength: number) => (value: unknown) => {
  if (typeof value !== 'string') return `${field} must be a string or null`;
  if (value.length > maxLength) return `${field} must be at most ${maxLength} characters`;
  return null;
};

/** Required on create; on update it may be left out but not set to null. */
export function NameField(required: boolean): PropertyDecorator {
  return applyDecorators(trim, ...(required ? [] : [present]), Rule('merchantName', nameProblem));
}

export const ActiveField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ example: true, description: "An inactive merchant's keys answer INVALID_MERCHANT_KEY." }),
    present,
    Rule('merchantActive', (value) => (typeof value === 'boolean' ? null : 'active must be true or false')),
  );

export const RefundAfterCloseField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: Boolean,
      default: false,
      example: false,
      description:
        'true: money received after close (a Pix the PSP reports for a cancelled or expired payment, which then becomes `paid` with `paidAfterClose`) ' +
        'is refunded in full automatically, and the merchant receives `refund.succeeded` and `payment.refunded`. false: the operator refunds it.',
    }),
    present,
    Rule('merchantRefundAfterClose', (value) => (typeof value === 'boolean' ? null : 'refund_after_close must be true or false')),
  );

export const WebhookUrlField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      example: 'https://shop.example.com/webhooks/pix',
      description:
        'Where payment events are forwarded; null for none. With WEBHOOK_ALLOW_PRIVATE_URLS=false (the production default) only https URLs ' +
        'whose host resolves to public addresses are accepted. Stored in canonical form (`new URL(…).href`).',
      maxLength: MAX_WEBHOOK_URL_LENGTH,
    }),
    presentAndNotNull,
    Rule('webhookUrl', stringOrNull('webhook_url', MAX_WEBHOOK_URL_LENGTH)),
  );

export const SigningSecretField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      example: 'generate',
      description:
        '`"generate"`: the gateway makes a `whsec_…` secret and returns it in this response only. A value of your own: `whsec_<base64 of 24–64 bytes>` ' +
        'or 16–256 printable ASCII characters. `null` removes the secret (events are then sent unsigned). Stored encrypted; never returned.',
    }),
    presentAndNotNull,
    Rule('webhookSigningSecret', stringOrNull('webhook_signing_secret', 1024)),
  );

/** Longest display name: what a checkout page's heading holds on a phone (docs/checkout.md). */
export const MAX_DISPLAY_NAME_LENGTH = 80;

/** NON_BLANK_TEXT_PATTERN (common/http/input-limits.ts) without the C1 controls either. */
const DISPLAY_NAME_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*[^\\u0000-\\u001F\\u007F-\\u009F\\s][^\\u0000-\\u001F\\u007F-\\u009F]*$';

function displayNameProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'display_name must be a string or null';
  if (value.length < 1 || value.length > MAX_DISPLAY_NAME_LENGTH) return `display_name must be 1 to ${MAX_DISPLAY_NAME_LENGTH} characters`;
  // C1 controls too: the name is shown to payers on a public page, where they would render as boxes or worse.
  if (/[\x00-\x1f\x7f-\x9f]/.test(value)) return 'display_name must not contain control characters';
  return null;
}

/** The name payers see on the checkout pages; null (or never set) shows `name`. Trimmed. */
export const DisplayNameField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      example: 'Ana Doces',
      minLength: 1,
      maxLength: MAX_DISPLAY_NAME_LENGTH,
      pattern: DISPLAY_NAME_PATTERN,
      description: 'The name payers see on the checkout and payment-link pages, trimmed; `null` shows `name` there.',
    }),
    trim,
    presentAndNotNull,
    Rule('merchantDisplayName', displayNameProblem),
  );

/** `#RRGGBB`, either case; stored in lower case (the form an <input type="color"> gives). */
const BRAND_COLOR = /^#[0-9a-f]{6}$/i;

export const BrandColorField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      example: '#0b6e4f',
      pattern: '^#[0-9A-Fa-f]{6}$',
      description:
        "The colour of the checkout pages' heading and buttons, `#RRGGBB` (stored in lower case); `null` uses the gateway's own. " +
        'Pick one with at least 4.5:1 contrast against white: text on the pages is drawn in it.',
    }),
    presentAndNotNull,
    Rule('merchantBrandColor', (value) => (typeof value === 'string' && BRAND_COLOR.test(value) ? null : 'brand_color must be a colour as #RRGGBB, or null')),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && BRAND_COLOR.test(value) ? value.toLowerCase() : value)),
  );

/** At most this many accounts in a merchant's list: each is tried in turn when the one before refuses. */
export const MAX_PROVIDER_ACCOUNTS = 10;

function providerAccountsProblem(value: unknown): string | null {
  if (!Array.isArray(value)) return 'provider_accounts must be an array of provider account ids';
  if (value.length > MAX_PROVIDER_ACCOUNTS) return `provider_accounts must list at most ${MAX_PROVIDER_ACCOUNTS} accounts`;
  if (value.some((id) => typeof id !== 'string' || id.length > 64)) return 'provider_accounts must be provider account ids';
  if (new Set(value).size !== value.length) return 'provider_accounts must not list an account twice';
  return null;
}

export const ProviderAccountsField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: [String],
      example: ['pa_5hQm2Zt8KcV1xLr9BnW3dF7Y'],
      description: 'Active provider accounts, in the order payments try them. Empty: `provider` (or DEFAULT_PROVIDER) with its built-in configuration.',
    }),
    present,
    Rule('providerAccounts', providerAccountsProblem),
  );

export const ProviderField = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      nullable: true,
      description: 'For a merchant with no provider_accounts: a provider with a built-in account on this gateway; null uses DEFAULT_PROVIDER.',
    }),
    presentAndNotNull,
    Rule('provider', stringOrNull('provider', 64)),
  );

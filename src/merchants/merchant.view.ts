import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A merchant as the admin API shows it: secrets never, only whether one is set. */
export class MerchantView {
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({ example: 'Loja da Ana' }) name: string;
  @ApiProperty({ type: String, nullable: true, example: 'Ana Doces', description: 'The name payers see on the checkout pages; null: `name` is shown.' })
  display_name: string | null;
  @ApiProperty({ type: String, nullable: true, example: '#0b6e4f', pattern: '^#[0-9a-f]{6}$', description: "The checkout pages' accent colour; null: the gateway's own." })
  brand_color: string | null;
  @ApiProperty({ example: true }) active: boolean;
  @ApiProperty({ type: String, nullable: true, example: 'https://shop.example.com/webhooks/pix' }) webhook_url: string | null;
  @ApiProperty({ example: true }) has_webhook_signing_secret: boolean;
  @ApiProperty({ type: String, nullable: true, example: null, description: "null: the gateway's DEFAULT_PROVIDER." }) provider: string | null;
  @ApiProperty({
    example: false,
    description: 'Money received after close (a payment paid after it was cancelled or expired) is refunded in full automatically; false: the operator refunds it.',
  })
  refund_after_close: boolean;
  @ApiProperty({ type: [String], example: ['pa_5hQm2Zt8KcV1xLr9BnW3dF7Y'], description: 'Provider accounts in the order payments try them; empty: `provider`.' })
  provider_accounts: string[];
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

/** The answer to a create or update that generated a signing secret: the only time it is shown. */
export class MerchantWithSecretView extends MerchantView {
  @ApiPropertyOptional({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwq1Zx0Ck7b3E=',
    description: 'Present only when `webhook_signing_secret: "generate"` was sent. Store it now: it is never shown again.',
  })
  webhook_signing_secret?: string;
}

export class MerchantPage {
  @ApiProperty({ type: [MerchantView] }) items: MerchantView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}

/** What identifies an API key wherever it is shown: never the key itself. */
class ApiKeyIdentityView {
  @ApiProperty({ example: 'key_7QmZ2xT9bLk4Wn8Rc1Vd5Hs3' }) id: string;
  @ApiProperty({ example: 'mk_live_AbCd', description: 'The first 12 characters of the key, to recognise it.' }) prefix: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** An API key as listed: never the key itself. */
export class ApiKeyView extends ApiKeyIdentityView {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the key last authenticated a request, to the minute (recorded at most once a minute); null: never used.',
  })
  last_used_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revoked_at: string | null;
}

/** The key a merchant's request authenticated with, as the merchant reads it: never the key itself. */
export class CurrentApiKeyView extends ApiKeyIdentityView {
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: 'When the key last authenticated a request, this one included, to the minute: it is recorded at most once a minute, so it can be up to a minute behind.',
  })
  last_used_at: string;
}

/** A newly issued key: the one response that contains it. */
export class IssuedApiKeyView {
  @ApiProperty({ example: 'key_7QmZ2xT9bLk4Wn8Rc1Vd5Hs3' }) id: string;
  @ApiProperty({ example: 'mk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345', description: 'Send as `X-Merchant-Key`. Shown only now; only its hash is stored.' }) key: string;
  @ApiProperty({ example: 'mk_live_AbCd' }) prefix: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

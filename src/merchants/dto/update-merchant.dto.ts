import { ApiPropertyOptional } from '@nestjs/swagger';
import { NON_BLANK_TEXT_PATTERN } from '../../common/http/input-limits';
import {
  ActiveField,
  BrandColorField,
  DisplayNameField,
  NameField,
  ProviderAccountsField,
  ProviderField,
  RefundAfterCloseField,
  SigningSecretField,
  WebhookUrlField,
} from './merchant-fields';

/**
 * Body of `PATCH /admin/api/merchants/:id`: only the fields present change. `null` clears
 * `display_name`, `brand_color`, `webhook_url`, `webhook_signing_secret` and `provider`; it is refused for `name`, `active` and `refund_after_close`.
 */
export class UpdateMerchantDto {
  @ApiPropertyOptional({ example: 'Loja da Ana', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN })
  @NameField(false)
  name?: string;

  @DisplayNameField()
  display_name?: string | null;

  @BrandColorField()
  brand_color?: string | null;

  @ActiveField()
  active?: boolean;

  @WebhookUrlField()
  webhook_url?: string | null;

  @SigningSecretField()
  webhook_signing_secret?: string | null;

  @ProviderField()
  provider?: string | null;

  @ProviderAccountsField()
  provider_accounts?: string[];

  @RefundAfterCloseField()
  refund_after_close?: boolean;
}

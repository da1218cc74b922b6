import { ApiProperty } from '@nestjs/swagger';
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

/** Body of `POST /admin/api/merchants` (docs/api.md, Admin API). Unknown fields are refused. */
export class CreateMerchantDto {
  @ApiProperty({ example: 'Loja da Ana', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN })
  @NameField(true)
  name: string;

  @DisplayNameField()
  display_name?: string | null;

  @BrandColorField()
  brand_color?: string | null;

  @WebhookUrlField()
  webhook_url?: string | null;

  @SigningSecretField()
  webhook_signing_secret?: string | null;

  @ProviderField()
  provider?: string | null;

  @ProviderAccountsField()
  provider_accounts?: string[];

  @ActiveField()
  active?: boolean;

  @RefundAfterCloseField()
  refund_after_close?: boolean;
}

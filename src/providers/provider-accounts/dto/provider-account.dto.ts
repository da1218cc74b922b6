import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NON_BLANK_TEXT_PATTERN } from '../../../common/http/input-limits';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, IsUrl, Length, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import type { AccountEnvironment } from '../../provider-adapter';
import type { ReceiverAccount } from '../../recurring';
import { RECEIVER_ACCOUNT_TYPES } from '../receiver-account';

const trim = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
/** PSP hosts are https (mutual TLS); a homologation host may be a bare name or an address. */
const HTTPS_URL: Parameters<typeof IsUrl>[0] = { protocols: ['https'], require_protocol: true, require_tld: false };
const ENVIRONMENTS: AccountEnvironment[] = ['sandbox', 'production'];
const CREDENTIALS_DESCRIPTION =
  'Depends on `provider` (docs/providers.md). Pix API PSPs: `{client_id, client_secret, certificate_pem, private_key_pem, ca_pem?}` or `{client_id, client_secret, pkcs12_base64, pkcs12_password?, ca_pem?}`, plus what the bank requires. Checked before anything is stored; never returned.';

/** A Pix API account's credentials, as Swagger UI shows them (never real ones). */
const CREDENTIALS_EXAMPLE = {
  client_id: 'Client_Id_4f2a9c',
  client_secret: 'Client_Secret_8d1e7b',
  certificate_pem: '-----BEGIN CERTIFICATE-----\nMIID…\n-----END CERTIFICATE-----',
  private_key_pem: '-----BEGIN PRIVATE KEY-----\nMIIE…\n-----END PRIVATE KEY-----',
};

/**
 * The account at the PSP where recurring charges settle: the Pix API's `recebedor` of every `/cobr`,
 * with the limits of its schema `DadosBancariosRecebedor` (`conta` at most 20 characters, `agencia`
 * at most 4, `tipoConta` one of three): https://github.com/bacen/pix-api/blob/main/openapi.yaml.
 * The schema leaves `agencia` optional; the gateway asks for it, as docs/providers.md says.
 */
export class ReceiverAccountDto implements ReceiverAccount {
  @ApiProperty({ example: '0001', minLength: 1, maxLength: 4, description: 'The branch (agência).' })
  @IsString()
  @Length(1, 4)
  agencia: string;

  @ApiProperty({ example: '1234567', minLength: 1, maxLength: 20, description: 'The account number (conta), as the bank writes it.' })
  @IsString()
  @Length(1, 20)
  conta: string;

  @ApiProperty({ enum: RECEIVER_ACCOUNT_TYPES, example: 'CORRENTE', description: 'CORRENTE (checking), POUPANCA (savings) or PAGAMENTO (payment account).' })
  @IsIn(RECEIVER_ACCOUNT_TYPES)
  tipoConta: ReceiverAccount['tipoConta'];
}

const RECEIVER_ACCOUNT_DESCRIPTION =
  "For recurring Pix (Pix Automático): the account at this PSP where recurring charges settle (the Pix API's `recebedor`). Required before the first recurrence; not secret.";

/** Body of `POST /admin/api/provider-accounts`. Unknown fields are refused. */
export class CreateProviderAccountDto {
  @ApiProperty({ example: 'Efí — Loja da Ana', minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN })
  @trim
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ example: 'efi', description: 'The adapter: `pix-api`, `efi`, `sicoob`, `bb`, `itau`, `inter`, `santander`, `sicredi`, `mercadopago`, `sandbox`.' })
  @IsString()
  @MaxLength(50)
  provider: string;

  @ApiPropertyOptional({ enum: ENVIRONMENTS, default: 'sandbox', description: "sandbox: the PSP's homologation host." })
  @IsOptional()
  @IsIn(ENVIRONMENTS)
  environment?: AccountEnvironment;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', pattern: '^https://', example: null, description: "Overrides the PSP's documented API host (https)." })
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsUrl(HTTPS_URL, { message: 'base_url must be an https URL' })
  @MaxLength(500)
  base_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', pattern: '^https://', example: null, description: "Overrides the PSP's documented token URL (https)." })
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsUrl(HTTPS_URL, { message: 'token_url must be an https URL' })
  @MaxLength(500)
  token_url?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 77,
    pattern: NON_BLANK_TEXT_PATTERN,
    example: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
    description: 'The receiving Pix key.',
  })
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @trim
  @IsString()
  @Length(1, 77)
  pix_key?: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: CREDENTIALS_EXAMPLE,
    description: CREDENTIALS_DESCRIPTION,
  })
  @IsObject()
  credentials: Record<string, unknown>;

  @ApiPropertyOptional({ type: ReceiverAccountDto, nullable: true, description: RECEIVER_ACCOUNT_DESCRIPTION })
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => ReceiverAccountDto)
  receiver_account?: ReceiverAccountDto | null;
}

/** Body of `PATCH /admin/api/provider-accounts/:id`: only the fields sent change; `credentials` is replaced whole. */
export class UpdateProviderAccountDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200, pattern: NON_BLANK_TEXT_PATTERN })
  @IsOptional()
  @trim
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', pattern: '^https://' })
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsUrl(HTTPS_URL, { message: 'base_url must be an https URL' })
  @MaxLength(500)
  base_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uri', pattern: '^https://' })
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsUrl(HTTPS_URL, { message: 'token_url must be an https URL' })
  @MaxLength(500)
  token_url?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 77, pattern: NON_BLANK_TEXT_PATTERN })
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @trim
  @IsString()
  @Length(1, 77)
  pix_key?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: CREDENTIALS_EXAMPLE,
    description: CREDENTIALS_DESCRIPTION,
  })
  @IsOptional()
  @IsObject()
  credentials?: Record<string, unknown>;

  @ApiPropertyOptional({ type: ReceiverAccountDto, nullable: true, description: `${RECEIVER_ACCOUNT_DESCRIPTION} Replaced whole; \`null\` removes it.` })
  @ValidateIf((_o, value) => value !== undefined && value !== null)
  @IsObject()
  @ValidateNested()
  @Type(() => ReceiverAccountDto)
  receiver_account?: ReceiverAccountDto | null;
}

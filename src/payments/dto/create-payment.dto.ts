import { ApiProperty, type ApiPropertyOptions, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsEmail, IsIn, IsObject, IsOptional, IsString, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsAmount } from '../../common/validation/amount';
import { IsCpfOrCnpj } from '../../common/validation/brazilian-document';
import { DueDto, RecipientAddressDto } from '../due/due.dto';
import { IsOptionalNotNull } from '../../common/validation/optional';
import { IsReturnUrl } from '../../common/validation/return-url';

/** 1–140 characters once surrounding spaces are trimmed (the Transform below). */
const RECIPIENT_NAME_PATTERN = '^ *[^\\u0000-\\u001F\\u007F ]([^\\u0000-\\u001F\\u007F]{0,138}[^\\u0000-\\u001F\\u007F ])? *$';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Body of `POST /v1/payments/create` (rules in docs/api.md, Payments). Unknown fields are refused. */
export class CreatePaymentDto {
  @ApiProperty({ example: 10.5, description: 'Decimal reais: > 0, at most 2 decimal places, at most MAX_PAYMENT_AMOUNT (1,000,000.00).' })
  @IsAmount()
  amount: number;

  @ApiProperty({ example: 'BRL', enum: ['BRL'] })
  @IsString()
  @IsIn(['BRL'], { message: 'currency must be "BRL"' })
  currency: string;

  @ApiProperty({
    example: '123.456.789-09',
    description:
      'CPF (11 digits) or CNPJ (14 characters: 12 letters or digits, then 2 check digits) of the payer; punctuation allowed, letters upper-cased; check digits verified.',
  })
  @IsString()
  @IsCpfOrCnpj()
  recipientDocument: string;

  @ApiProperty({
    example: 'Ana Souza',
    minLength: 1,
    pattern: RECIPIENT_NAME_PATTERN,
    'x-trimmed': true,
    description: '1–140 characters once surrounding spaces are trimmed.',
  } as ApiPropertyOptions)
  @Transform(trim)
  @IsString()
  @Length(1, 140, { message: 'recipientName must be 1 to 140 characters' })
  recipientName: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Order 1234', maxLength: 140 })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'ana@example.com',
    format: 'email',
    maxLength: 254,
    description:
      "The payer's e-mail, passed to PSPs that ask for one (Mercado Pago). Without it, Mercado Pago is given an address derived from the payment id at a reserved domain, never a person's (docs/providers.md).",
  })
  @IsOptional()
  @IsString()
  @MaxLength(254, { message: 'recipientEmail must be at most 254 characters' })
  @IsEmail({}, { message: 'recipientEmail must be an e-mail address' })
  recipientEmail?: string | null;

  @ApiProperty({ example: 'order-1234', pattern: '^[A-Za-z0-9._:-]{1,64}$', description: 'Your order id: 1–64 characters of [A-Za-z0-9._:-].' })
  @IsString()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/, { message: 'externalId must be 1 to 64 characters of A-Z a-z 0-9 . _ : -' })
  externalId: string;

  @ApiPropertyOptional({ example: 'pix', enum: ['pix'], description: 'Payment method; only "pix" for now.' })
  @IsOptional()
  @IsIn(['pix'], { message: 'method must be "pix"' })
  method?: 'pix';

  @ApiPropertyOptional({
    type: DueDto,
    description:
      'Makes it a due-date charge (docs/due-charges.md): payable until `due.date` with the discount that applies, after it with the fine and interest, ' +
      'until `due.daysAfterDue` days later. Only through providers whose catalogue entry offers `due_charges`.',
  })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => DueDto)
  due?: DueDto;

  @ApiPropertyOptional({
    type: String,
    example: 'https://shop.example.com/orders/1234',
    description:
      'Where the checkout page (`checkoutUrl`, docs/checkout.md) sends the payer once paid ("Voltar à loja"), with `?payment_id=` added: https (http only on localhost).',
  })
  @IsOptionalNotNull()
  @IsReturnUrl()
  returnUrl?: string;

  @ApiPropertyOptional({ type: RecipientAddressDto, description: "The payer's address, for a due-date charge (only with `due`)." })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => RecipientAddressDto)
  recipientAddress?: RecipientAddressDto;
}

/** Body of `POST /v1/pix/create`: the same operation with the method fixed to Pix. */
export class CreatePixPaymentDto extends OmitType(CreatePaymentDto, ['method'] as const) {}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsInt, IsObject, IsOptional, IsString, isISO8601, Matches, Max, MaxLength, Min, ValidateBy, ValidateNested } from 'class-validator';
import { IsAmount } from '../../common/validation/amount';
import { IsOptionalNotNull } from '../../common/validation/optional';
import { IsReturnUrl } from '../../common/validation/return-url';
import { MAX_PAYMENTS_LIMIT } from '../payment-link-rules';

/** An RFC 3339 date-time with its offset (what the document's `date-time` format takes), seconds included. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

/** The bounds a payer chooses an amount within (both included). */
export class AmountRangeDto {
  @ApiProperty({ example: 10, description: 'The least a payer may pay, in decimal reais.' })
  @IsAmount('amountRange.min')
  min: number;

  @ApiProperty({ example: 500, description: 'The most a payer may pay, in decimal reais: more than `min`, at most MAX_PAYMENT_AMOUNT (1,000,000.00).' })
  @IsAmount('amountRange.max')
  max: number;
}

/** What a link's page asks the payer besides their name and CPF/CNPJ. */
export class CollectDto {
  @ApiPropertyOptional({ example: true, description: "Ask the payer's e-mail (required on the page, then given to the payment as `recipientEmail`)." })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'collect.email must be true or false' })
  email?: boolean;
}

/** Body of `POST /v1/payment-links` (docs/api.md, Payment links). Unknown fields are refused. */
export class CreatePaymentLinkDto {
  @ApiProperty({ example: 'Camiseta azul', minLength: 1, maxLength: 140, description: "What the payer buys: the page's heading and each payment's description; not only spaces." })
  @IsString()
  @Matches(/^(?=.*\S).{1,140}$/, { message: 'title must be 1 to 140 characters, not only spaces' })
  title: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Tamanhos P, M e G; entrega em até 5 dias úteis.', maxLength: 140, description: 'Shown under the title.' })
  @IsOptional()
  @IsString()
  @MaxLength(140, { message: 'description must be at most 140 characters' })
  description?: string | null;

  @ApiPropertyOptional({
    example: 59.9,
    description: 'A fixed amount in decimal reais (> 0, at most 2 decimal places, at most MAX_PAYMENT_AMOUNT). Exactly one of `amount` and `amountRange`.',
  })
  @IsOptionalNotNull()
  @IsAmount()
  amount?: number;

  @ApiPropertyOptional({ type: AmountRangeDto, description: 'The payer types the amount, within these bounds. Exactly one of `amount` and `amountRange`.' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => AmountRangeDto)
  amountRange?: AmountRangeDto;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2027-06-30T23:59:59-03:00',
    description: 'When the link stops taking payments (ISO 8601 with its offset, in the future). None: it never expires.',
  })
  @IsOptionalNotNull()
  @ValidateBy({
    name: 'isDateTime',
    validator: {
      // The shape the document's `date-time` takes, and a real day of a real month (strict ISO 8601).
      validate: (value) => typeof value === 'string' && DATE_TIME.test(value) && isISO8601(value, { strict: true }),
      defaultMessage: () => 'expiresAt must be an ISO 8601 date-time with seconds and an offset, such as 2027-06-30T23:59:59-03:00',
    },
  })
  expiresAt?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAYMENTS_LIMIT,
    example: 50,
    description: 'How many payments it sells: once its paid and pending payments reach this, it is used up. None: no limit.',
  })
  @IsOptionalNotNull()
  @IsInt({ message: 'maxPayments must be a whole number' })
  @Min(1, { message: `maxPayments must be 1 to ${MAX_PAYMENTS_LIMIT}` })
  @Max(MAX_PAYMENTS_LIMIT, { message: `maxPayments must be 1 to ${MAX_PAYMENTS_LIMIT}` })
  maxPayments?: number;

  @ApiPropertyOptional({ type: CollectDto, description: 'What the page asks the payer besides name and CPF/CNPJ.' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => CollectDto)
  collect?: CollectDto;

  @ApiPropertyOptional({
    type: String,
    example: 'https://shop.example.com/thanks',
    description: 'Where each payment’s checkout page sends the payer once paid ("Voltar à loja"), with `?payment_id=`: https (http only on localhost).',
  })
  @IsOptionalNotNull()
  @IsReturnUrl()
  returnUrl?: string;
}

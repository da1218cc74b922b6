import { type ApiPropertyOptions, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, IsString, MaxLength } from 'class-validator';

/** Body of `POST /v1/payments/:id/refunds` (docs/api.md, Refunds). */
export class CreateRefundDto {
  @ApiPropertyOptional({
    example: 3.5,
    exclusiveMinimum: 0,
    multipleOf: 0.01,
    description: 'Decimal reais, > 0, at most 2 decimal places; defaults to everything left to refund.',
  } as unknown as ApiPropertyOptions)
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a JSON number' })
  amount?: number;

  @ApiPropertyOptional({ example: 'Item returned', maxLength: 140, description: 'Why the money goes back; at most 140 characters (shown to the payer by PSPs that carry it).' })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  reason?: string;
}

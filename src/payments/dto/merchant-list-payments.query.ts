import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../domain/payment-status';

/** Filters of `GET /v1/payments` (docs/api.md, Listing payments): the merchant's own payments only. */
export class MerchantListPaymentsQuery {
  @ApiPropertyOptional({ example: 'order-1234', description: "Exactly this `externalId`: how a merchant finds an order's payment." })
  @IsOptional()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/, { message: 'externalId must be 1 to 64 characters of A-Z, a-z, 0-9, ".", "_", ":" or "-"' })
  externalId?: string;

  @ApiPropertyOptional({ enum: PAYMENT_STATUSES })
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: PaymentStatus;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created at or after this instant (ISO 8601).' })
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'created_from must be an ISO 8601 date-time' })
  created_from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created before this instant (ISO 8601).' })
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'created_to must be an ISO 8601 date-time' })
  created_to?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page.' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;
}

import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsOptional, IsString, Max, Matches, Min } from 'class-validator';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../domain/payment-status';

/** Filters of `GET /admin/api/payments` (docs/api.md, Admin API), plus a creation date range for the dashboard. */
export class ListPaymentsQuery {
  @ApiPropertyOptional({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @IsOptional()
  @IsString()
  merchant_id?: string;

  @ApiPropertyOptional({ enum: PAYMENT_STATUSES })
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: PaymentStatus;

  @ApiPropertyOptional({ example: 'order-1234' })
  @IsOptional()
  @IsString()
  external_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created at or after this instant.' })
  @IsOptional()
  @IsDateString()
  created_from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created before this instant.' })
  @IsOptional()
  @IsDateString()
  created_to?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
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

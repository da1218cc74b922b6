import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageLimit } from '../../common/http/page-query';
import { BATCH_STATUSES, type BatchStatus } from '../payment-batch.entity';

const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;

/** Filters of `GET /v1/payment-batches`: the merchant's own batches, newest first. */
export class ListPaymentBatchesQuery {
  @ApiPropertyOptional({ enum: BATCH_STATUSES })
  @IsOptional()
  @IsIn(BATCH_STATUSES)
  status?: BatchStatus;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page.' })
  @IsOptional()
  @Matches(CURSOR, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;

  @PageLimit(20)
  limit?: number;
}

/** Filters of `GET /admin/api/payment-batches`: every merchant's, newest first. */
export class ListAdminPaymentBatchesQuery {
  @ApiPropertyOptional({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @IsOptional()
  @IsString()
  merchant_id?: string;

  @ApiPropertyOptional({ enum: BATCH_STATUSES })
  @IsOptional()
  @IsIn(BATCH_STATUSES)
  status?: BatchStatus;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page.' })
  @IsOptional()
  @Matches(CURSOR, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;

  @PageLimit(50)
  limit?: number;
}

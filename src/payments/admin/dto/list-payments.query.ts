import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { CreatedRangePageQuery, PageLimit } from '../../../common/http/page-query';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../domain/payment-status';

/** Filters of `GET /admin/api/payments` (docs/api.md, Admin API), plus a creation date range for the dashboard. */
export class ListPaymentsQuery extends CreatedRangePageQuery {
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

  @ApiPropertyOptional({ example: 'plink_3kTMd9Q2xLr8VbN1cZp4Wf7A', pattern: '^plink_[A-Za-z0-9]{24}$', description: 'Only the payments payers opened from this payment link.' })
  @IsOptional()
  @Matches(/^plink_[A-Za-z0-9]{24}$/, { message: 'payment_link_id must be a payment link id (plink_…)' })
  payment_link_id?: string;

  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: '`true`: only payments paid by a Pix received after they were cancelled or expired (`paidAfterClose`, money to return); `false`: only the others.',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'paid_after_close must be true or false' })
  paid_after_close?: 'true' | 'false';

  @PageLimit(50)
  limit?: number;
}

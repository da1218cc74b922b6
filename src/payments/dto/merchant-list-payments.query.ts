import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { CreatedRangePageQuery, PageLimit } from '../../common/http/page-query';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../domain/payment-status';

/** Filters of `GET /v1/payments` (docs/api.md, Payments: List): the merchant's own payments only. */
export class MerchantListPaymentsQuery extends CreatedRangePageQuery {
  @ApiPropertyOptional({ example: 'order-1234', pattern: '^[A-Za-z0-9._:-]{1,64}$', description: "Exactly this `externalId`: how a merchant finds an order's payment." })
  @IsOptional()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/, { message: 'externalId must be 1 to 64 characters of A-Z, a-z, 0-9, ".", "_", ":" or "-"' })
  externalId?: string;

  @ApiPropertyOptional({ example: 'plink_3kTMd9Q2xLr8VbN1cZp4Wf7A', pattern: '^plink_[A-Za-z0-9]{24}$', description: 'Only the payments payers opened from this payment link.' })
  @IsOptional()
  @Matches(/^plink_[A-Za-z0-9]{24}$/, { message: 'paymentLinkId must be a payment link id (plink_…)' })
  paymentLinkId?: string;

  @ApiPropertyOptional({ enum: PAYMENT_STATUSES })
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: PaymentStatus;

  @PageLimit(20)
  limit?: number;
}

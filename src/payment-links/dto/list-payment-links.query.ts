import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { PageLimit } from '../../common/http/page-query';

const CURSOR = /^[A-Za-z0-9_-]{1,200}$/;

/** Filters of `GET /v1/payment-links`: the merchant's own links, newest first. */
export class ListPaymentLinksQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: only links not deactivated; `false`: only deactivated ones.' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'active must be true or false' })
  active?: 'true' | 'false';

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page.' })
  @IsOptional()
  @Matches(CURSOR, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;

  @PageLimit(20)
  limit?: number;
}

/** Filters of `GET /admin/api/payment-links`: every merchant's, newest first. */
export class ListAdminPaymentLinksQuery extends ListPaymentLinksQuery {
  @ApiPropertyOptional({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @IsOptional()
  @IsString()
  merchant_id?: string;
}

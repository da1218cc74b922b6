import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { PageLimit } from '../../common/http/page-query';
import { RECURRENCE_STATUSES, type RecurrenceStatus } from '../../domain/recurrence';

/** Filters of `GET /v1/recurrences`: the merchant's own only, newest first. */
export class ListRecurrencesQuery {
  @ApiPropertyOptional({ example: 'subscription-881' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/, { message: 'externalId must be 1 to 64 characters of A-Z, a-z, 0-9, ".", "_", ":" or "-"' })
  externalId?: string;

  @ApiPropertyOptional({ enum: RECURRENCE_STATUSES })
  @IsOptional()
  @IsIn(RECURRENCE_STATUSES)
  status?: RecurrenceStatus;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page.' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;

  @PageLimit(20)
  limit?: number;
}

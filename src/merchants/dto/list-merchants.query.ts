import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, Matches } from 'class-validator';
import { Rule } from './merchant-fields';

/** Query of `GET /admin/api/merchants`: a name search and keyset paging for the dashboard. */
export class ListMerchantsQuery {
  @ApiPropertyOptional({ example: 'ana', maxLength: 200, description: 'Case-insensitive part of the name, or an exact merchant id.' })
  @IsOptional()
  @Rule('merchantSearch', (value) => (typeof value !== 'string' ? 'q must be given once' : value.length > 200 ? 'q must be at most 200 characters' : null))
  q?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value))
  @Rule('pageLimit', (value) => (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 100 ? null : 'limit must be a whole number from 1 to 100'))
  limit?: number;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page.' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;
}

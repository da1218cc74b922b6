import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDateString, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

/** A page size from the query string: a whole number from 1 to 100 (each list documents its default). */
export const PageLimit = (defaultLimit: number) =>
  applyDecorators(
    ApiPropertyOptional({ minimum: 1, maximum: 100, default: defaultLimit }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value)),
    IsInt(),
    Min(1),
    Max(100),
  );

/** What every keyset-paged list of payments takes besides its own filters: a creation range and the cursor (common/http/cursor.ts). */
export class CreatedRangePageQuery {
  @ApiPropertyOptional({ format: 'date-time', description: 'Created at or after this instant (ISO 8601).' })
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'created_from must be an ISO 8601 date-time' })
  created_from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Created before this instant (ISO 8601).' })
  @IsOptional()
  @IsDateString({ strict: true }, { message: 'created_to must be an ISO 8601 date-time' })
  created_to?: string;

  @ApiPropertyOptional({ description: 'The `next_cursor` of the previous page.' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'cursor is not a cursor this API returned' })
  cursor?: string;
}

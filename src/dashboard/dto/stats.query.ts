import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateString, IsOptional } from 'class-validator';

/** Query of `GET /admin/api/stats`. */
export class StatsQuery {
  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-22T03:00:00.000Z',
    description: "Start of the operator's today (the dashboard sends its local midnight); defaults to midnight UTC.",
  })
  @IsOptional()
  @IsDateString({}, { message: 'day_start must be an ISO 8601 date-time' })
  day_start?: string;
}

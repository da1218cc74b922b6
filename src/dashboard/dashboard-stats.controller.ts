import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../auth/admin-auth.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import { DashboardStatsService } from './dashboard-stats.service';
import { StatsQuery } from './dto/stats.query';
import { StatsView } from './dto/stats.view';

@ApiTags('dashboard')
@AdminAuth()
@Controller('admin/api/stats')
export class DashboardStatsController {
  constructor(private readonly stats: DashboardStatsService) {}

  @Get()
  @ApiOperation({
    summary: 'Overview numbers',
    description:
      'Payments and paid volume today and over 7 days (per day), payments by status, failed and pending deliveries, and each ' +
      "provider's error rate over 24 h: create attempts that ended without a payment / all create attempts.",
  })
  @ApiEnvelopeResponse(200, StatsView)
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR)
  getDashboardStats(@Query() query: StatsQuery): Promise<StatsView> {
    return this.stats.overview(query);
  }
}

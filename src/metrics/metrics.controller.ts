import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { MetricsAuthGuard } from '../auth/metrics-auth.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiErrorResponses } from '../common/http/api-docs';
import { NoEnvelope } from '../common/http/no-envelope.decorator';
import { GatewayMetrics } from './gateway-metrics';

@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: GatewayMetrics) {}

  /** Prometheus text exposition; errors (401) are still the envelope. */
  @Get()
  @NoEnvelope()
  @UseGuards(MetricsAuthGuard)
  @ApiBearerAuth('metricsToken')
  @ApiBearerAuth('adminToken')
  @ApiOperation({ summary: 'Prometheus metrics', description: "The process's metrics in Prometheus' text format. Bearer METRICS_TOKEN or the admin token." })
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'Prometheus text format 0.0.4.' })
  @ApiErrorResponses(ErrorCode.UNAUTHORIZED, ErrorCode.RATE_LIMITED)
  async getMetrics(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const { contentType, body } = await this.metrics.scrape();
    reply.header('content-type', contentType);
    return body;
  }
}

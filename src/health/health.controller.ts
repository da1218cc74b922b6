import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import type { FastifyReply } from 'fastify';
import { NoEnvelope } from '../common/http/no-envelope.decorator';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
  ) {}

  /** 200 `{"status":"ok"}` once the database is migrated and answers; 503 otherwise (contract section 1). */
  @Get()
  @NoEnvelope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness and readiness: the database is migrated and reachable.' })
  @ApiResponse({ status: 200, schema: { example: { status: 'ok' } } })
  @ApiResponse({ status: 503, schema: { example: { status: 'error' } } })
  async check(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ status: 'ok' | 'error' }> {
    try {
      await this.health.check([() => this.db.pingCheck('database', { timeout: 3000 })]);
      return { status: 'ok' };
    } catch {
      reply.status(503);
      return { status: 'error' };
    }
  }
}

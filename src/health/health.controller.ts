import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { databaseUnavailableError } from '../common/errors/database-unavailable';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiErrorResponses } from '../common/http/api-docs';
import { NoEnvelope } from '../common/http/no-envelope.decorator';
import { DatabaseHealth } from '../database/database-health';

/** How long the database may take to answer before the gateway reports itself unavailable. */
const PING_TIMEOUT_MS = 3000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly database: DatabaseHealth) {}

  /**
   * 200 `{"status":"ok"}` once the database is migrated and answers; 503 SERVICE_UNAVAILABLE (the
   * error envelope, with Retry-After as every request the database's absence fails) when it does not
   * answer within 3 s, so a load balancer takes this process out.
   */
  @Get()
  @NoEnvelope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness and readiness', description: 'The database is migrated and reachable: 200; otherwise 503, and a load balancer sends traffic elsewhere.' })
  @ApiResponse({ status: 200, schema: { example: { status: 'ok' } } })
  @ApiErrorResponses(ErrorCode.SERVICE_UNAVAILABLE)
  async getHealth(): Promise<{ status: 'ok' }> {
    if (!(await this.database.ping(PING_TIMEOUT_MS))) throw databaseUnavailableError();
    return { status: 'ok' };
  }
}

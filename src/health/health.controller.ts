import { Controller, Get, HttpCode } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiErrorResponses } from '../common/http/api-docs';
import { NoEnvelope } from '../common/http/no-envelope.decorator';
import { within } from '../common/timeout';

/** How long the database may take to answer before the gateway reports itself unavailable. */
const PING_TIMEOUT_MS = 3000;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * 200 `{"status":"ok"}` once the database is migrated and answers; 503 SERVICE_UNAVAILABLE (the
   * error envelope) when it does not answer within 3 s, so a load balancer takes this process out.
   */
  @Get()
  @NoEnvelope()
  @HttpCode(200)
  @ApiOperation({ summary: 'Liveness and readiness: the database is migrated and reachable.' })
  @ApiResponse({ status: 200, schema: { example: { status: 'ok' } } })
  @ApiErrorResponses(ErrorCode.SERVICE_UNAVAILABLE)
  async check(): Promise<{ status: 'ok' }> {
    if (!(await this.databaseAnswers())) throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, { message: 'The database is unreachable.' });
    return { status: 'ok' };
  }

  private async databaseAnswers(): Promise<boolean> {
    if (!this.dataSource.isInitialized) return false;
    const ping = this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return within(ping, PING_TIMEOUT_MS, () => false);
  }
}

import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { safeEqual } from '../common/crypto/hash';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { requestState } from '../common/http/request-state';
import { AuthFailuresService } from '../common/throttle/auth-failures.service';
import { bearerToken } from './bearer';

/**
 * `GET /metrics`: `Authorization: Bearer` with METRICS_TOKEN (a scraper's own credential) or the admin
 * token, both compared in constant time; anything else is 401 UNAUTHORIZED. A wrong token is a failed
 * authentication like a wrong admin token; a missing one is not.
 */
@Injectable()
export class MetricsAuthGuard implements CanActivate {
  constructor(
    private readonly config: AppConfig,
    private readonly failures: AuthFailuresService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    await this.failures.assertNotBlocked(req);
    const presented = bearerToken(req);
    if (presented === undefined) throw new AppError(ErrorCode.UNAUTHORIZED);
    // Both comparisons always run, so the answer time does not tell which token was close.
    const metricsToken = this.config.metricsToken?.reveal();
    const isMetrics = metricsToken !== undefined && metricsToken !== '' ? safeEqual(presented, metricsToken) : false;
    const isAdmin = safeEqual(presented, this.config.adminApiToken.reveal());
    if (isAdmin) requestState(req).principal = 'admin';
    if (isMetrics || isAdmin) return true;
    // An empty token is a missing credential, not a failed guess.
    if (presented !== '') await this.failures.recordFailure(req, 'metrics_token');
    throw new AppError(ErrorCode.UNAUTHORIZED);
  }
}

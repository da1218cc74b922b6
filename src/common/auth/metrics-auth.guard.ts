import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { safeEqual } from '../crypto/hash';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-codes';
import { requestState } from '../http/request-state';

/**
 * `GET /metrics`: `Authorization: Bearer` with METRICS_TOKEN (a scraper's own credential) or the admin
 * token, both compared in constant time; anything else is 401 UNAUTHORIZED. A wrong token is a failed
 * authentication like a wrong admin token; a missing one is not.
 */
@Injectable()
export class MetricsAuthGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const header = req.headers.authorization;
    if (typeof header !== 'string' || !/^Bearer\s+/i.test(header)) throw new AppError(ErrorCode.UNAUTHORIZED);
    const presented = header.replace(/^Bearer\s+/i, '').trim();
    // Both comparisons always run, so the answer time does not tell which token was close.
    const metricsToken = this.config.metricsToken?.reveal();
    const isMetrics = metricsToken !== undefined && metricsToken !== '' ? safeEqual(presented, metricsToken) : false;
    const isAdmin = safeEqual(presented, this.config.adminApiToken.reveal());
    if (isAdmin) requestState(req).principal = 'admin';
    if (isMetrics || isAdmin) return true;
    this.onFailedAuth(req);
    throw new AppError(ErrorCode.UNAUTHORIZED);
  }

  /**
   * FAILED-AUTH HOOK: the one place a wrong metrics token is reported as a failed authentication
   * (throttled per client address with wrong admin tokens and merchant keys). Nothing is counted yet.
   */
  private onFailedAuth(_req: FastifyRequest): void {}
}

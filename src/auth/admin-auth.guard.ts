import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, Optional, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { safeEqual } from '../common/crypto/hash';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiErrorResponses } from '../common/http/api-docs';
import { requestState } from '../common/http/request-state';
import { bearerToken } from './bearer';
import { AuthFailuresService } from '../common/throttle/auth-failures.service';

/**
 * A second way in for the admin API besides the bearer token: the dashboard's session (cookie +
 * CSRF token). The dashboard module provides it under this token; without it only the bearer works.
 */
export const ADMIN_SESSION_VERIFIER = Symbol('ADMIN_SESSION_VERIFIER');
export interface AdminSessionVerifier {
  /** True when the request carries a valid session (and, for state-changing methods, a valid CSRF token). */
  verify(req: FastifyRequest): Promise<boolean>;
}

/**
 * `Authorization: Bearer $ADMIN_API_TOKEN` (constant-time) or a dashboard session; else 401
 * UNAUTHORIZED. An address with too many failed authentications gets 429 first; a wrong token counts
 * as one (an expired or missing session does not: it is what a signed-out browser sends).
 */
@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(
    private readonly config: AppConfig,
    private readonly failures: AuthFailuresService,
    @Optional() @Inject(ADMIN_SESSION_VERIFIER) private readonly sessions?: AdminSessionVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    await this.failures.assertNotBlocked(req);
    const presented = bearerToken(req);
    if (presented !== undefined) {
      if (safeEqual(presented, this.config.adminApiToken.reveal())) return authenticated(req);
      // An empty token is a missing credential, not a failed guess.
      if (presented !== '') await this.failures.recordFailure(req, 'admin_token');
      throw new AppError(ErrorCode.UNAUTHORIZED);
    }
    if (this.sessions && (await this.sessions.verify(req))) return authenticated(req);
    throw new AppError(ErrorCode.UNAUTHORIZED);
  }
}

/** Marks the request as the operator's, for the access log. */
function authenticated(req: FastifyRequest): true {
  requestState(req).principal = 'admin';
  return true;
}

export function AdminAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(AdminAuthGuard), ApiBearerAuth('adminToken'), ApiErrorResponses(ErrorCode.UNAUTHORIZED, ErrorCode.RATE_LIMITED));
}

import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { catchError, from, Observable, switchMap, throwError } from 'rxjs';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { AuthFailuresService } from '../common/throttle/auth-failures.service';

/**
 * A callback that proves nothing is a failed authentication of its address, counted with wrong keys
 * and tokens: an address past the limit gets 429 before its callbacks cost any PSP read, as the
 * guards of authenticated routes do for credentials.
 */
@Injectable()
export class CallbackAuthFailuresInterceptor implements NestInterceptor {
  constructor(private readonly failures: AuthFailuresService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    return from(this.failures.assertNotBlocked(req)).pipe(
      switchMap(() => next.handle()),
      catchError((error: unknown) => {
        if (!(error instanceof AppError) || error.code !== ErrorCode.INVALID_SIGNATURE) return throwError(() => error);
        return from(this.failures.recordFailure(req, 'provider_callback')).pipe(switchMap(() => throwError(() => error)));
      }),
    );
  }
}

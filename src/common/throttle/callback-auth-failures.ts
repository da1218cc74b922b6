import { applyDecorators, ArgumentsHost, CanActivate, Catch, ExceptionFilter, ExecutionContext, Injectable, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { nameProvider, providerNamedBy } from '../errors/answer-provider';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-codes';
import { AllExceptionsFilter } from '../http/exception.filter';
import { AuthFailuresService } from './auth-failures.service';

/** An address past its failed authentications gets 429 before its callback costs any PSP read. */
@Injectable()
export class CallbackNotBlockedGuard implements CanActivate {
  constructor(private readonly failures: AuthFailuresService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    await this.failures.assertNotBlocked(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }
}

/**
 * A callback that proved nothing (401 INVALID_SIGNATURE) is counted against its address before the
 * answer goes out, and is the 429 instead when it is past the limit; everything else is rendered as
 * the global filter renders it. A filter rather than an interceptor: with any interceptor Nest runs
 * every callback, the good ones too, through its rxjs chain (docs/performance.md).
 */
@Catch(AppError)
@Injectable()
export class CallbackAuthFailuresFilter implements ExceptionFilter<AppError> {
  private readonly render: AllExceptionsFilter;

  constructor(
    config: AppConfig,
    private readonly failures: AuthFailuresService,
  ) {
    this.render = new AllExceptionsFilter(config);
  }

  async catch(error: AppError, host: ArgumentsHost): Promise<void> {
    if (error.code !== ErrorCode.INVALID_SIGNATURE) return this.render.catch(error, host);
    try {
      await this.failures.recordFailure(host.switchToHttp().getRequest<FastifyRequest>(), 'provider_callback');
    } catch (tooMany) {
      // Answered in the refused callback's place, naming the provider it named.
      return this.render.catch(nameProvider(tooMany, providerNamedBy(error)), host);
    }
    this.render.catch(error, host);
  }
}

/**
 * Callbacks that prove nothing count as failed authentications of their address, with wrong keys
 * and tokens, as the guards of authenticated routes count credentials.
 */
export function CountsCallbackAuthFailures(): ClassDecorator {
  return applyDecorators(UseGuards(CallbackNotBlockedGuard), UseFilters(CallbackAuthFailuresFilter));
}

import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { PreparedResponse, successEnvelope } from './envelope';
import { NO_ENVELOPE } from './no-envelope.decorator';
import { requestState } from './request-state';

/** Wraps what a handler returns in the success envelope; a PreparedResponse is sent as it is. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    private readonly config: AppConfig,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    if (this.reflector.getAllAndOverride<boolean>(NO_ENVELOPE, [context.getHandler(), context.getClass()])) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    return next.handle().pipe(
      map((value: unknown) => {
        if (value instanceof PreparedResponse) {
          reply.status(value.status);
          for (const [name, header] of Object.entries(value.headers)) reply.header(name, header);
          return value.body;
        }
        const state = requestState(req);
        return successEnvelope(value ?? null, state.requestId, state.provider ?? this.config.defaultProvider);
      }),
    );
  }
}

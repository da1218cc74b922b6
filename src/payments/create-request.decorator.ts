import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { type GatewayRequestState, requestState } from '../common/http/request-state';

/** What payment creation needs from the HTTP request besides the validated body. */
export interface CreateRequestContext {
  /** The route path (`/v1/payments/create` or `/v1/pix/create`): part of "the same request". */
  path: string;
  idempotencyKey: string | undefined;
  /** The body as the client sent it (before validation), fingerprinted for idempotency. */
  body: unknown;
  requestId: string;
  /** The request's state: creation names the provider that handles the payment in it. */
  state: GatewayRequestState;
}

export const CreateRequest = createParamDecorator((_: unknown, ctx: ExecutionContext): CreateRequestContext => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  const header = req.headers['idempotency-key'];
  return {
    path: req.routeOptions.url ?? req.url.split('?')[0]!,
    idempotencyKey: Array.isArray(header) ? header[0] : header,
    body: req.body,
    requestId: requestState(req).requestId,
    state: requestState(req),
  };
});

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { requestState } from '../common/http/request-state';
import { IDEMPOTENCY_KEY, requireIdempotencyKey } from './idempotency-key';
import type { IdempotentCall } from './idempotency.service';
import { requestFingerprint } from './request-fingerprint';

/** What the service behind an idempotent route needs of its HTTP request (docs/api.md, Idempotency). */
export interface IdempotentRequest {
  /** The Idempotency-Key header as sent; idempotentCall() checks it where the service's own checks put it. */
  key: string | undefined;
  /** The path the key's record keeps: the route's, with the parameter that scopes the key filled in. */
  path: string;
  /** "The same request": requestFingerprint() of the method, that path and the body as sent (before validation). */
  fingerprint: string;
  requestId: string;
}

/**
 * The request an idempotent route serves. `@IdempotentRequest('id')` fills the route's `:id` into
 * the path: one key for two payments' refunds is two requests.
 */
export const IdempotentRequest = createParamDecorator((scopeParam: string | undefined, ctx: ExecutionContext): IdempotentRequest => {
  const req = ctx.switchToHttp().getRequest<FastifyRequest>();
  const header = req.headers['idempotency-key'];
  const route = req.routeOptions.url ?? req.url.split('?')[0]!;
  const path = scopeParam === undefined ? route : route.replace(`:${scopeParam}`, () => (req.params as Record<string, string>)[scopeParam] ?? '');
  return {
    key: Array.isArray(header) ? header[0] : header,
    path,
    fingerprint: requestFingerprint(req.method, path, req.body),
    requestId: requestState(req).requestId,
  };
});

/** The merchant's call under the request's key, for IdempotencyService.run; a missing or malformed key is VALIDATION_ERROR naming the header. */
export function idempotentCall(merchantId: string, request: IdempotentRequest): IdempotentCall {
  return { merchantId, key: requireIdempotencyKey(request.key), fingerprint: request.fingerprint, path: request.path };
}

/** The Idempotency-Key header in the API document, with the rule requireIdempotencyKey() applies. */
export function ApiIdempotencyKey(what: string): MethodDecorator {
  return ApiHeader({
    name: 'Idempotency-Key',
    required: true,
    description: `One unique value per ${what} (1–255 printable ASCII).`,
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY.source },
  });
}

import type { FastifyRequest } from 'fastify';
import { safeEqual } from '../common/crypto/hash';

const BEARER = /^Bearer\s+/i;

/** The token of `Authorization: Bearer <token>` (possibly empty), or undefined when there is no bearer credential. */
export function bearerToken(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' && BEARER.test(header) ? header.replace(BEARER, '').trim() : undefined;
}

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function bearerMatches(request: Pick<FastifyRequest, 'headers'>, token: string): boolean {
  const presented = bearerToken(request);
  return presented !== undefined && safeEqual(presented, token);
}

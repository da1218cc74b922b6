import type { FastifyRequest } from 'fastify';
import { safeEqual } from '../crypto/hash';

/** Whether the request carries `Authorization: Bearer <token>` (compared in constant time). */
export function bearerMatches(request: Pick<FastifyRequest, 'headers'>, token: string): boolean {
  const header = request.headers.authorization;
  return typeof header === 'string' && /^Bearer\s+/i.test(header) && safeEqual(header.replace(/^Bearer\s+/i, '').trim(), token);
}

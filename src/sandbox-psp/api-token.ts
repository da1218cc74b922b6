import type { FastifyRequest } from 'fastify';
import { safeEqual } from '../common/crypto/hash';

const BEARER = /^Bearer\s+/i;

/** Whether the request presents the PSP's API token as `Authorization: Bearer <token>` (compared in constant time). */
export function presentsApiToken(request: Pick<FastifyRequest, 'headers'>, token: string): boolean {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !BEARER.test(header)) return false;
  return safeEqual(header.replace(BEARER, '').trim(), token);
}

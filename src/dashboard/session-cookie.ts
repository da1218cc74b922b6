import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';

export const SESSION_COOKIE = 'gw_admin_session';
/** A session ends after this long without a request… */
export const SESSION_IDLE_SECONDS = 8 * 3600;
/** …and this long after sign-in, however busy. */
export const SESSION_ABSOLUTE_SECONDS = 24 * 3600;

/**
 * httpOnly (scripts never see it), SameSite=Strict (no other site's page can make the browser send
 * it), Secure in production, and scoped to /admin, the dashboard and its API: the merchant API and
 * /docs never receive it.
 */
function options(config: AppConfig): CookieSerializeOptions {
  return { path: '/admin', httpOnly: true, sameSite: 'strict', secure: config.isProduction };
}

export function setSessionCookie(reply: FastifyReply, config: AppConfig, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { ...options(config), maxAge: SESSION_ABSOLUTE_SECONDS });
}

export function clearSessionCookie(reply: FastifyReply, config: AppConfig): void {
  reply.clearCookie(SESSION_COOKIE, options(config));
}

export function sessionCookie(req: FastifyRequest): string | undefined {
  const value = req.cookies?.[SESSION_COOKIE];
  return value ? value : undefined;
}

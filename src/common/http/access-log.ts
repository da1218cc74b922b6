import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/** Route label of a request no route matched: one value, so scanners cannot grow the series. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What the access log records into: the HTTP histogram (GatewayMetrics's), named by its shape so common/ imports no feature. */
export interface HttpDurationRecorder {
  httpRequestDuration: { observe(labels: { route: string; method: string; status: string }, seconds: number): void };
}

/** Paths whose requests get an access log line, with the routes providers serve; docs and dashboard pages do not. */
const LOGGED_PREFIXES = ['/v1', '/admin/api', '/webhooks', '/metrics', '/health'];

/** Probes and scrapers call these every few seconds: their successful answers are debug. */
const PROBE_PREFIXES = ['/health', '/metrics'];

/**
 * Whether an access line is debug rather than info: what repeats on its own every few seconds and
 * went well. That is a probe's or a scraper's successful call, and a successful read of the admin
 * API by a dashboard session (the dashboard polls; a session is an admin request without a bearer
 * token). A read with the admin token stays info: a person or a script asked for it. Every 4xx and
 * 5xx stays info, whoever made it.
 */
export function isQuietRequest(req: { method: string; path: string; bearer: boolean; principal?: string }, status: number): boolean {
  if (status >= 400) return false;
  if (isUnderPrefix(req.path, PROBE_PREFIXES)) return true;
  const read = req.method === 'GET' || req.method === 'HEAD';
  return read && isUnderPrefix(req.path, ['/admin/api']) && req.principal === 'admin' && !req.bearer;
}

/** The error code of an error envelope (`{"success":false,"error":{"code":"…"`), read from the sent body. */
export function errorCodeOf(payload: unknown): string | undefined {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8', 0, Math.min(payload.length, 4096)) : undefined;
  if (!text?.startsWith('{')) return undefined;
  return /"error":\{"code":"([A-Z0-9_]{1,64})"/.exec(text.slice(0, 4096))?.[1];
}

/** Error codes of answers being sent, kept from onSend (where the body is) to onResponse (where the line is written). */
const errorCodes = new WeakMap<FastifyRequest, string>();

export function isAccessLogged(path: string, prefixes: readonly string[] = LOGGED_PREFIXES): boolean {
  return isUnderPrefix(path, prefixes);
}

/** Whether a request path (its query string left off) is one of `prefixes` or below one. */
export function isUnderPrefix(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** The route pattern (`/v1/payments/:id`), never the raw URL: bounded label values, no ids or query strings. */
export function routeOf(req: FastifyRequest): string {
  return req.routeOptions?.url ?? UNMATCHED_ROUTE;
}

/**
 * One access log line per API request when its answer is sent, whatever answered it (a handler,
 * a guard, the error filter, Fastify's 404), and its duration into the HTTP histogram. The line
 * holds the method, route pattern, status, the envelope's error code for a 4xx or 5xx, duration,
 * request id, client address and who authenticated (merchant id or `admin`): no header, query
 * string or body, so no key, token, cookie or payer document can reach it. It is info, except what
 * isQuietRequest calls polling, which is debug.
 */
export function registerAccessLog(fastify: FastifyInstance, logger: () => Logger, metrics: HttpDurationRecorder, providerPrefixes: readonly string[] = []): void {
  const logged = [...LOGGED_PREFIXES, ...providerPrefixes];
  // Every error answer is an envelope, whoever wrote it (the filter, a hook, the router): its code is read from the body sent.
  fastify.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode >= 400) {
      const code = errorCodeOf(payload);
      if (code) errorCodes.set(req, code);
    }
    return payload;
  });
  fastify.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    const route = routeOf(req);
    const status = reply.statusCode;
    const durationMs = reply.elapsedTime;
    metrics.httpRequestDuration.observe({ route, method: req.method, status: String(status) }, durationMs / 1000);
    const path = req.url.split('?', 1)[0]!;
    if (!isAccessLogged(path, logged)) return;
    const state = req.gateway;
    const code = errorCodes.get(req);
    const quiet = isQuietRequest({ method: req.method, path, bearer: req.headers.authorization !== undefined, principal: state?.principal }, status);
    const line = {
      method: req.method,
      route,
      status,
      ...(code ? { error_code: code } : {}),
      duration_ms: Math.round(durationMs * 10) / 10,
      request_id: state?.requestId ?? req.id,
      ip: req.ip,
      ...(state?.principal ? { principal: state.principal } : {}),
    };
    const message = `${req.method} ${route} ${status}${code ? ` ${code}` : ''}`;
    if (quiet) logger().debug(line, message);
    else logger().info(line, message);
  });
}

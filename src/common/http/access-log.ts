import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/** Route label of a request no route matched: one value, so scanners cannot grow the series. */
export const UNMATCHED_ROUTE = 'unmatched';

/** What the access log records into: the HTTP histogram (GatewayMetrics's), named by its shape so common/ imports no feature. */
export interface HttpDurationRecorder {
  httpRequestDuration: { observe(labels: { route: string; method: string; status: string }, seconds: number): void };
}

/** Paths whose requests get an access log line, with the routes providers serve; health checks, docs and dashboard pages do not. */
const LOGGED_PREFIXES = ['/v1', '/admin/api', '/webhooks', '/metrics'];

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
 * holds the method, route pattern, status, duration, request id, client address and who
 * authenticated (merchant id or `admin`): no header, query string or body, so no key, token,
 * cookie or payer document can reach it.
 */
export function registerAccessLog(fastify: FastifyInstance, logger: () => Logger, metrics: HttpDurationRecorder, providerPrefixes: readonly string[] = []): void {
  const logged = [...LOGGED_PREFIXES, ...providerPrefixes];
  fastify.addHook('onResponse', async (req: FastifyRequest, reply: FastifyReply) => {
    const route = routeOf(req);
    const status = reply.statusCode;
    const durationMs = reply.elapsedTime;
    metrics.httpRequestDuration.observe({ route, method: req.method, status: String(status) }, durationMs / 1000);
    if (!isAccessLogged(req.url.split('?', 1)[0]!, logged)) return;
    const state = req.gateway;
    logger().info(
      {
        method: req.method,
        route,
        status,
        duration_ms: Math.round(durationMs * 10) / 10,
        request_id: state?.requestId ?? req.id,
        ip: req.ip,
        ...(state?.principal ? { principal: state.principal } : {}),
      },
      `${req.method} ${route} ${status}`,
    );
  });
}

import type { Socket } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger, PinoLogger } from 'nestjs-pino';
import { setupApiDocument } from './api-document';
import { AppModule } from './app.module';
import { AdminAuthGuard } from './auth/admin-auth.guard';
import { isPublicFormPost } from './checkout/public-forms';
import { isPublicPagePath, sendNotFound } from './checkout/public-pages';
import { bearerMatches } from './auth/bearer';
import { AppError } from './common/errors/app-error';
import { ErrorCode } from './common/errors/error-codes';
import { isUnderPrefix, registerAccessLog } from './common/http/access-log';
import { EnvelopingFastifyAdapter } from './common/http/enveloping-adapter';
import { errorEnvelope, frameworkError } from './common/http/exception.filter';
import { findInputProblems } from './common/http/input-limits';
import { GatewayRequestState, newRequestId } from './common/http/request-state';
import { Clock } from './domain/clock';
import { AppConfig } from './config/app-config';
import { REQUESTS, ShutdownProgress } from './common/lifecycle/shutdown-progress';
import { registerDashboard } from './dashboard/dashboard-static';
import { GatewayMetrics } from './metrics/gateway-metrics';
import { loadSandboxSettings } from './providers/sandbox/settings';
import { sandboxServer } from './sandbox-psp/sandbox-server';

export const BODY_LIMIT_BYTES = 64 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Longest path parameter the router accepts. Ids are 28 characters and provider names short; a
 * longer parameter cannot name anything, so it is NOT_FOUND like an id of the wrong shape.
 */
export const MAX_PARAM_LENGTH = 128;

/**
 * A slow client may hold a connection only so long: its headers must arrive within 10 s and its
 * body within 30 s of the request's start, or the connection is closed. Node checks the deadlines
 * every `checkEveryMs`. Tests pass shorter ones (createApp's second argument, not a setting).
 */
export interface ConnectionTimeouts {
  headersMs: number;
  requestMs: number;
  checkEveryMs: number;
}
const DEFAULT_TIMEOUTS: ConnectionTimeouts = { headersMs: 10_000, requestMs: 30_000, checkEveryMs: 1_000 };

/** Paths whose answers are API data: never stored by a browser or a proxy cache. */
const API_PATH = /^\/(v1|admin\/api|webhooks|health|metrics)(\/|\?|$)/;

/**
 * Builds the gateway on Fastify: request ids, the 64 KiB body limit, JSON-only bodies (415
 * otherwise), raw bodies kept for signature checks, Swagger at /docs. Used by main.ts and by the
 * e2e tests, so tests boot exactly what production runs. Fastify runs hooks in the order they are
 * added, which is the order below (docs/architecture.md, Every request).
 */
export async function createApp(
  config: AppConfig,
  options: { timeouts?: Partial<ConnectionTimeouts>; /** Tests move time with a fake clock. */ clock?: Clock } = {},
): Promise<NestFastifyApplication> {
  const adapter = envelopingAdapter(config, { ...DEFAULT_TIMEOUTS, ...options.timeouts });
  // The lines Nest logs while it builds the app wait for the gateway's logger, and are dropped if
  // the build fails: main.ts then says why in one line, instead of Nest printing its module lines
  // and the error's stack before it.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options.clock), adapter, {
    bufferLogs: true,
    autoFlushLogs: false,
    rawBody: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.flushLogs();

  const fastify = app.getHttpAdapter().getInstance();
  allowRouteBodyLimits(fastify);
  trackConnections(app, fastify);
  addRequestHooks(app, fastify, config);
  const mountSandboxPsp = sandboxPspMount(config, options.clock);
  const sandboxPrefixes = mountSandboxPsp ? [SANDBOX_PSP_PREFIX] : [];
  registerAccessLog(fastify, () => PinoLogger.root, app.get(GatewayMetrics), sandboxPrefixes);
  refuseHostileInput(fastify, sandboxPrefixes);

  // The dashboard's session cookie, and its pages at /admin (the API stays under /admin/api).
  await app.register(fastifyCookie);
  await registerDashboard(app);

  // The simulated PSP, answering in its own shape; operators reach it with the admin API's own guard.
  await mountSandboxPsp?.(app);

  setupApiDocument(app, config);
  await app.init();
  return app;
}

/** HSTS and the upgrade of insecure requests only when the public URL is https, or a plain-HTTP deployment would lock browsers out. */
function servesHttps(config: AppConfig): boolean {
  return config.publicBaseUrl.startsWith('https://');
}

/**
 * Fastify with the gateway's limits, connection deadlines and proxy trust. Errors the router or
 * Node's HTTP parser raise before any route or hook runs get the envelope too, and the headers the
 * hooks would have set.
 */
function envelopingAdapter(config: AppConfig, timeouts: ConnectionTimeouts): EnvelopingFastifyAdapter {
  const envelopeOf = (error: AppError, requestId: string) => errorEnvelope(error, requestId, config.defaultProvider);
  const earlyHeaders = { ...EARLY_HEADERS, ...(servesHttps(config) ? { 'strict-transport-security': HSTS } : {}) };
  return new EnvelopingFastifyAdapter(
    {
      bodyLimit: BODY_LIMIT_BYTES,
      genReqId: () => newRequestId(),
      requestIdHeader: false,
      logger: false,
      return503OnClosing: true,
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
      // A URL the router cannot decode, or a parameter over MAX_PARAM_LENGTH.
      frameworkErrors: (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
        // Under /pay and /l, a URL that names no page is the public pages' one 404 page (src/checkout/public-pages.ts).
        if (isPublicPagePath(req.url)) return void sendNotFound(req, reply.header('x-request-id', req.id));
        const appError = frameworkError(error.code, error.statusCode ?? 500, error.message) ?? new AppError(ErrorCode.INTERNAL_ERROR, { cause: error });
        void reply
          .status(appError.status)
          .headers({ 'x-request-id': req.id, ...earlyHeaders })
          .type('application/json; charset=utf-8')
          .send(envelopeOf(appError, req.id));
      },
      // Requests Node's parser refuses (bad header bytes, headers over 16 KiB, a broken request line).
      clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => writeClientError(error, socket, envelopeOf, earlyHeaders),
      // Fastify's requestTimeout is Node's: from the request's start until its body has arrived.
      requestTimeout: timeouts.requestMs,
      http: { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: timeouts.checkEveryMs },
      // TRUST_PROXY: whose X-Forwarded-For sets req.ip (the address throttling and logs use). Off by default.
      // A hop count becomes proxy-addr's own rule for one: trust the first `hops` addresses from the socket.
      trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    },
    config.defaultProvider,
  );
}

/**
 * A route may take bodies larger than BODY_LIMIT_BYTES by naming its own limit,
 * `@RouteConfig({ bodyLimit })` (a batch of 1,000 payments: src/payment-batches); every other keeps
 * the gateway's. Added before the routes are, which app.init() registers.
 */
function allowRouteBodyLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const bodyLimit = (route.config as { bodyLimit?: unknown } | undefined)?.bodyLimit;
    if (typeof bodyLimit === 'number') route.bodyLimit = bodyLimit;
  });
}

/** Keeps the app's open connections, which the shutdown tells requests in flight by (closeGracefully). */
function trackConnections(app: NestFastifyApplication, fastify: FastifyInstance): void {
  const open = new Set<Socket>();
  connections.set(app, open);
  fastify.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/** What every request gets before any route: security headers, its id and state, no caching of API data, JSON bodies only (and a payment link's form). */
function addRequestHooks(app: NestFastifyApplication, fastify: FastifyInstance, config: AppConfig): void {
  // Before any hook below can refuse the request.
  const securityHeaders = securityHeadersMiddleware(servesHttps(config));
  fastify.addHook('onRequest', (req, reply, done) => securityHeaders(req.raw, reply.raw, () => done()));
  fastify.decorateRequest('gateway', null as unknown as GatewayRequestState);
  // Once shutdown begins, every answer closes its connection, so a kept-alive client whose request
  // was in flight does not hold the server open for the keep-alive timeout.
  fastify.addHook('onSend', async (_req, reply) => {
    if (draining.has(app)) reply.header('connection', 'close');
  });
  fastify.addHook('onRequest', async (req, reply) => {
    req.gateway = { requestId: req.id };
    reply.header('x-request-id', req.id);
    if (API_PATH.test(req.url)) reply.header('cache-control', 'no-store');
    if (BODY_METHODS.has(req.method) && hasBody(req.headers)) {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json' && !type.endsWith('+json') && !isPublicFormPost(req)) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    }
  });
}

/**
 * Helmet's security headers. The dashboard's page sets its own stricter policy
 * (dashboard-static.ts); this one is what Swagger UI at /docs needs: its own scripts and styles (it
 * has inline <style> and style attributes) and data: images. The middleware is built once:
 * @fastify/helmet built it again on every request and left a closure over the request on each
 * reply, which made V8 keep whole requests through its young-generation collections
 * (docs/performance.md, Memory).
 */
function securityHeadersMiddleware(https: boolean): ReturnType<typeof helmet> {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'style-src': ["'self'", "'unsafe-inline'"],
        'style-src-attr': ["'unsafe-inline'"],
        'connect-src': ["'self'"],
        'upgrade-insecure-requests': https ? [] : null,
      },
    },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false } : false,
  });
}

/**
 * Hostile input is refused before any handler, guard or database sees it (a NUL reaches
 * PostgreSQL as an error, a 40-level array as a stack of nested validations), for every body and
 * query the gateway reads, DTO-validated or not (webhook intake keeps its raw body). The simulated
 * PSP answers with its own bodies, so the gateway's input rules stop at its door.
 */
function refuseHostileInput(fastify: FastifyInstance, sandboxPrefixes: readonly string[]): void {
  fastify.addHook('preValidation', async (req) => {
    // A payment link's form answers a refused field with the form again (src/checkout/payment-link-pages.controller.ts).
    if (isUnderPrefix(req.url.split('?', 1)[0]!, sandboxPrefixes) || isPublicFormPost(req)) return;
    const problems = [...findInputProblems(req.body, 'body'), ...findInputProblems(req.query, 'query')];
    if (problems.length > 0) throw AppError.validation(problems);
  });
}

/** Where the gateway serves the simulated PSP. */
const SANDBOX_PSP_PREFIX = '/sandbox';

/**
 * The simulated PSP (src/sandbox-psp, docs/sandbox.md), served under /sandbox while SANDBOX_ENABLED:
 * a plain Fastify plugin with its own bodies, parser and error handling, so its answers are the
 * sandbox's, not the gateway's envelope. In production it only posts events back to this gateway.
 * Only the sandbox adapter (with its API token), the admin token or a dashboard session may use it.
 */
function sandboxPspMount(config: AppConfig, clock: Clock | undefined): ((app: NestFastifyApplication) => Promise<void>) | undefined {
  const settings = loadSandboxSettings(config);
  if (!settings.enabled) return undefined;
  return async (app) => {
    const isOperator = await operatorCheck(app);
    const fastify = app.getHttpAdapter().getInstance();
    await fastify.register(sandboxServer, {
      prefix: SANDBOX_PSP_PREFIX,
      webhookSecret: settings.webhookSecret?.reveal(),
      notificationUrlPrefix: config.isProduction ? `${config.publicBaseUrl}/webhooks/` : undefined,
      allowPrivateNotificationUrls: config.webhookAllowPrivateUrls,
      refundSettleDelayMs: settings.refundSettleDelayMs,
      // A test's clock moves the simulated PSP's days too: a due-date charge is late for both at once.
      now: clock ? () => clock.now().getTime() : undefined,
      authorize: async (request) => bearerMatches(request, settings.apiToken.reveal()) || (await isOperator(request)),
    });
  };
}

/** Whether a request is an operator's, by the admin API's own guard (admin token or dashboard session, CSRF included). */
async function operatorCheck(app: NestFastifyApplication): Promise<(request: FastifyRequest) => Promise<boolean>> {
  const adminGuard = await app.get(ModuleRef).create(AdminAuthGuard);
  return async (request) => {
    try {
      return await adminGuard.canActivate(new ExecutionContextHost([request, undefined]));
    } catch (error) {
      // A plain 401 gets the sandbox's own answer; 403 (CSRF) and 429 pass through.
      if (error instanceof AppError && error.code === ErrorCode.UNAUTHORIZED) return false;
      throw error;
    }
  };
}

const draining = new WeakSet<NestFastifyApplication>();
/** Each app's open connections: at shutdown, one still open once the idle ones are closed is a request in flight. */
const connections = new WeakMap<NestFastifyApplication, Set<Socket>>();

/**
 * SIGTERM, within the deadline ShutdownProgress holds (src/main.ts): stop accepting connections,
 * close the idle kept-alive ones at once, let requests in flight finish (each answer closes its
 * connection) for the time left for work, then cut the connections still open, each a request
 * abandoned. Then app.close() stops the background jobs (the delivery worker lets its attempts in
 * flight finish within the same bound) and closes the database.
 */
export async function closeGracefully(app: NestFastifyApplication, warn: (message: string) => void): Promise<void> {
  const progress = app.get(ShutdownProgress);
  if (!progress.begun) {
    const { shutdownTimeoutMs } = app.get(AppConfig);
    progress.begin(Date.now() + shutdownTimeoutMs, shutdownTimeoutMs);
  }
  const server = app.getHttpAdapter().getInstance().server;
  // A destroyed socket may still be in the set until its 'close' event, a turn of the loop later.
  const open = connections.get(app) ?? new Set<Socket>();
  const inFlight = () => [...open].filter((socket) => !socket.destroyed).length;
  progress.track(REQUESTS, inFlight);
  draining.add(app);
  if (server.listening) {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const waitMs = progress.workMsLeft();
    const force = setTimeout(() => {
      const unanswered = inFlight();
      warn(`Shutdown: ${unanswered} request(s) still unanswered after ${waitMs} ms; closing their connections`);
      progress.giveUp(REQUESTS, unanswered);
      server.closeAllConnections();
    }, waitMs);
    await closed;
    clearTimeout(force);
  }
  progress.enter('stopping');
  await app.close();
}

/** What helmet and the onRequest hook set, for the answers written before either can run. */
const EARLY_HEADERS: Readonly<Record<string, string>> = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;
const HSTS = `max-age=${HSTS_MAX_AGE_SECONDS}`;

/**
 * Node's parser refused the request (bad bytes, a broken request line or length, headers over its
 * 16 KiB limit), or the header or body deadline passed. A malformed request gets the envelope
 * (VALIDATION_ERROR, the table's nearest code) when nothing has been written on the connection
 * yet; a timed-out one is simply closed.
 */
function writeClientError(
  error: NodeJS.ErrnoException,
  socket: Socket,
  envelopeOf: (error: AppError, requestId: string) => object,
  headers: Readonly<Record<string, string>>,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT' && socket.writable && socket.bytesWritten === 0) {
    const requestId = newRequestId();
    const appError = AppError.validation([{ field: 'request', message: 'The request is not valid HTTP/1.1, or its headers are over 16 KiB.' }]);
    const body = JSON.stringify(envelopeOf(appError, requestId));
    const lines = Object.entries({
      ...headers,
      'x-request-id': requestId,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    });
    socket.write(`HTTP/1.1 ${appError.status} Bad Request\r\n${lines.map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n${body}`);
  }
  socket.destroy(error);
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

import fastifyCookie from '@fastify/cookie';
import { ModuleRef, NestFactory } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger, PinoLogger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { AdminAuthGuard } from './common/auth/admin-auth.guard';
import { bearerMatches } from './common/auth/bearer';
import { AppError } from './common/errors/app-error';
import { ErrorCode } from './common/errors/error-codes';
import { registerDashboard } from './dashboard/dashboard-static';
import { registerAccessLog } from './common/http/access-log';
import { GatewayRequestState, newRequestId } from './common/http/request-state';
import { AppConfig } from './config/app-config';
import { GatewayMetrics } from './metrics/gateway-metrics';
import { sandboxServer } from './providers/sandbox/server/sandbox-server';

export const BODY_LIMIT_BYTES = 64 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Builds the gateway on Fastify: request ids, the 64 KiB body limit, JSON-only bodies (415
 * otherwise), raw bodies kept for signature checks, Swagger at /docs. Used by main.ts and by the
 * e2e tests, so tests boot exactly what production runs.
 */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => newRequestId(),
    requestIdHeader: false,
    logger: false,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
    // TRUST_PROXY: whose X-Forwarded-For sets req.ip (the address throttling and logs use). Off by default.
    // A hop count becomes proxy-addr's own rule for one: trust the first `hops` addresses from the socket.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    bufferLogs: true,
    rawBody: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));

  const fastify = app.getHttpAdapter().getInstance();
  fastify.decorateRequest('gateway', null as unknown as GatewayRequestState);
  // Once shutdown begins, every answer closes its connection, so a kept-alive client whose request
  // was in flight does not hold the server open for the keep-alive timeout.
  fastify.addHook('onSend', async (_req, reply) => {
    if (draining.has(app)) reply.header('connection', 'close');
  });
  fastify.addHook('onRequest', async (req, reply) => {
    req.gateway = { requestId: req.id };
    reply.header('x-request-id', req.id);
    if (BODY_METHODS.has(req.method) && hasBody(req.headers)) {
      const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json' && !type.endsWith('+json')) throw new AppError(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
    }
  });
  registerAccessLog(fastify, () => PinoLogger.root, app.get(GatewayMetrics));

  // The dashboard's session cookie, and its pages at /admin (the API stays under /admin/api).
  await app.register(fastifyCookie);
  await registerDashboard(app);

  // The simulated PSP (SANDBOX_API.md): a plain Fastify plugin with its own bodies, parser and error
  // handling, so its answers are the sandbox's, not the gateway's envelope. In production it only
  // posts events back to this gateway. Only the sandbox adapter (with its API token), the admin
  // token or a dashboard session may use it; the admin checks are the admin API's own guard.
  if (config.sandboxEnabled) {
    const adminGuard = await app.get(ModuleRef).create(AdminAuthGuard);
    await app.register(sandboxServer, {
      prefix: '/sandbox',
      webhookSecret: config.sandboxWebhookSecret?.reveal(),
      notificationUrlPrefix: config.isProduction ? `${config.publicBaseUrl}/webhooks/` : undefined,
      allowPrivateNotificationUrls: config.webhookAllowPrivateUrls,
      authorize: async (request) => {
        if (bearerMatches(request, config.sandboxApiToken.reveal())) return true;
        try {
          return await adminGuard.canActivate(new ExecutionContextHost([request, undefined]));
        } catch (error) {
          // A plain 401 gets the sandbox's own answer, which names every way in; 403 (CSRF) and 429 pass through.
          if (error instanceof AppError && error.code === ErrorCode.UNAUTHORIZED) return false;
          throw error;
        }
      },
    });
  }

  setupOpenApi(app);
  await app.init();
  return app;
}

const draining = new WeakSet<NestFastifyApplication>();

/**
 * SIGTERM: stop accepting connections, close the idle kept-alive ones at once, let requests in
 * flight finish (each answer closes its connection), and after `timeoutMs` close whatever is still
 * open. Then app.close() stops the background jobs (the delivery worker lets its attempts in flight
 * finish within the same bound) and closes the database.
 */
export async function closeGracefully(app: NestFastifyApplication, timeoutMs: number, warn: (message: string) => void): Promise<void> {
  const server = app.getHttpAdapter().getInstance().server;
  draining.add(app);
  if (server.listening) {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => {
      warn(`Shutdown still under way after ${timeoutMs} ms: closing every remaining connection`);
      server.closeAllConnections();
    }, timeoutMs);
    await closed;
    clearTimeout(force);
  }
  await app.close();
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

function setupOpenApi(app: NestFastifyApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Pix Gateway API')
      .setDescription(
        'Create Pix payments, read their status, and receive provider events. Every body is the envelope ' +
          '`{success, data | error, request_id, provider}`; `X-Request-Id` repeats `request_id`.',
      )
      .setVersion('1')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Merchant-Key' }, 'merchantKey')
      .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_API_TOKEN' }, 'adminToken')
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json', yamlDocumentUrl: 'docs/yaml' });
}

import fastifyCookie from '@fastify/cookie';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger, PinoLogger } from 'nestjs-pino';
import { AppModule } from './app.module';
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
  // posts events back to this gateway.
  if (config.sandboxEnabled) {
    await app.register(sandboxServer, {
      prefix: '/sandbox',
      webhookSecret: config.sandboxWebhookSecret?.reveal(),
      notificationUrlPrefix: config.isProduction ? `${config.publicBaseUrl}/webhooks/` : undefined,
    });
  }

  setupOpenApi(app);
  await app.init();
  return app;
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

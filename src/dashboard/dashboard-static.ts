import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Where `npm run build:web` (Vite) puts the dashboard: dist/web under the project root, the folder
 * with package.json above this file (src/dashboard/ when run from source, dist/src/dashboard/ when
 * compiled, /app/dist/src/dashboard/ in the container). Undefined until it has been built.
 */
export function dashboardRoot(): string | undefined {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      const web = join(dir, 'dist', 'web');
      return existsSync(join(web, 'index.html')) ? web : undefined;
    }
  }
  return undefined;
}

/**
 * The page only loads what the gateway serves: no inline scripts, no other origins, not framed.
 * `data:` images are the QR codes the API returns as PNG data URLs.
 */
const HTML_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/**
 * Serves the dashboard at /admin from the same process as the API: hashed assets under
 * /admin/assets/ (cached for good), and index.html for /admin and every other /admin/* path so the
 * single-page app owns its URLs (reloading /admin/payments/pay_… works). /admin/api/* stays the
 * API: an unknown API path is the API's 404 envelope, never the page.
 */
export async function registerDashboard(app: NestFastifyApplication): Promise<void> {
  const root = dashboardRoot();
  const fastify = app.getHttpAdapter().getInstance();
  if (root) {
    await app.register(fastifyStatic, {
      root: join(root, 'assets'),
      prefix: '/admin/assets/',
      decorateReply: false,
      index: false,
      cacheControl: false,
      setHeaders: (reply) => {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
        reply.header('x-content-type-options', 'nosniff');
      },
    });
  }
  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url === '/admin/api' || req.url.startsWith('/admin/api/') || req.url.startsWith('/admin/api?')) return reply.callNotFound();
    if (!root) {
      return reply
        .status(503)
        .type('text/html; charset=utf-8')
        .headers(HTML_HEADERS)
        .send(
          '<!doctype html><title>Dashboard not built</title><p>The dashboard has not been built. Run <code>npm run build:web</code> (or <code>npm install</code>) and restart the gateway.</p>',
        );
    }
    return reply
      .type('text/html; charset=utf-8')
      .headers(HTML_HEADERS)
      .send(await readFile(join(root, 'index.html')));
  };
  fastify.get('/admin', page);
  fastify.get('/admin/*', page);
}

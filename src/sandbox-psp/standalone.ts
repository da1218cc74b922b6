import { randomBytes } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import { parseRefundDelay } from '../common/sandbox-wire/refund-delay';
import { presentsApiToken } from './api-token';
import type { BatchHooks } from './batches';
import { DEFAULT_MAX_CHARGES, sandboxServer } from './sandbox-server';

export interface StandaloneSandboxOptions {
  port?: number;
  host?: string;
  webhookSecret?: string;
  /**
   * The bearer token clients present (the gateway's SANDBOX_API_TOKEN). Without one a random token is
   * made, so a sandbox is never open to whoever can reach its port.
   */
  apiToken?: string;
  /** Whether notification URLs may point at loopback/private addresses; true by default (a development tool). */
  allowPrivateNotificationUrls?: boolean;
  maxCharges?: number;
  logLevel?: string;
  /** The sandbox's clock in epoch milliseconds (charge times and expiry); tests move it. */
  now?: () => number;
  /** How long refunds stay in process before settling by themselves; null: only when told (tests). */
  refundSettleDelayMs?: number | null;
  /** How long each batch is held and which of its charges are refused, as a test decides (docs/sandbox.md, Batches). */
  batchHooks?: BatchHooks;
}

export interface RunningSandbox {
  /** Base URL of the sandbox API, e.g. `http://127.0.0.1:4000` (no prefix when alone). */
  url: string;
  /** The bearer token every route but /health requires. */
  apiToken: string;
  close(): Promise<void>;
}

/** Runs the sandbox PSP alone on its own port (`npm run sandbox`, the benchmark, the provider contract suite in test/providers). */
export async function startSandboxServer(options: StandaloneSandboxOptions = {}): Promise<RunningSandbox> {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    // Per-request logs would cost more than the sandbox's own work at benchmark rates.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 64 * 1024,
  });
  const apiToken = options.apiToken ?? `sbx_${randomBytes(24).toString('base64url')}`;
  await app.register(sandboxServer, {
    webhookSecret: options.webhookSecret,
    maxCharges: options.maxCharges,
    now: options.now,
    refundSettleDelayMs: options.refundSettleDelayMs,
    batchHooks: options.batchHooks,
    authorize: (request) => presentsApiToken(request, apiToken),
    allowPrivateNotificationUrls: options.allowPrivateNotificationUrls ?? true,
  });
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, apiToken, close: () => app.close() };
}

function envBool(name: string, fallback: boolean): boolean {
  const raw = process.env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  console.error(`${name} must be true or false, got "${raw}".`);
  process.exit(1);
}

function envInt(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    console.error(`${name} must be a whole number between ${min} and ${max}, got "${raw}".`);
    process.exit(1);
  }
  return value;
}

function refundDelay(): number | null {
  const problems: string[] = [];
  const delay = parseRefundDelay(process.env.SANDBOX_REFUND_DELAY_MS, problems);
  if (problems.length) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  return delay;
}

async function main(): Promise<void> {
  const sandbox = await startSandboxServer({
    port: envInt('SANDBOX_PORT', 4000, 0, 65535),
    host: process.env.SANDBOX_HOST?.trim() || '127.0.0.1',
    webhookSecret: process.env.SANDBOX_WEBHOOK_SECRET || undefined,
    apiToken: process.env.SANDBOX_API_TOKEN || undefined,
    allowPrivateNotificationUrls: envBool('WEBHOOK_ALLOW_PRIVATE_URLS', true),
    maxCharges: envInt('SANDBOX_MAX_CHARGES', DEFAULT_MAX_CHARGES, 1, 10_000_000),
    logLevel: process.env.LOG_LEVEL?.trim() || 'info',
    refundSettleDelayMs: refundDelay(),
  });
  console.log(`Sandbox PSP listening on ${sandbox.url} (events ${process.env.SANDBOX_WEBHOOK_SECRET ? 'signed' : 'unsigned'})`);
  // A generated token is shown once, as the gateway shows its generated admin token; give the
  // gateway the same value as SANDBOX_API_TOKEN.
  if (!process.env.SANDBOX_API_TOKEN) console.log(`Clients authenticate with Authorization: Bearer ${sandbox.apiToken} (set SANDBOX_API_TOKEN to choose it).`);
  const stop = () => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

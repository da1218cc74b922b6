import Fastify, { LogController } from 'fastify';
import { DEFAULT_MAX_CHARGES, sandboxServer } from './sandbox-server';

export interface StandaloneSandboxOptions {
  port?: number;
  host?: string;
  webhookSecret?: string;
  maxCharges?: number;
  logLevel?: string;
}

export interface RunningSandbox {
  /** Base URL of the sandbox API, e.g. `http://127.0.0.1:4000` (no prefix when alone). */
  url: string;
  close(): Promise<void>;
}

/** Runs the sandbox PSP alone on its own port (`npm run sandbox`, the benchmark, contract tests). */
export async function startSandboxServer(options: StandaloneSandboxOptions = {}): Promise<RunningSandbox> {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    // Per-request logs would cost more than the sandbox's own work at benchmark rates.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 64 * 1024,
  });
  await app.register(sandboxServer, { webhookSecret: options.webhookSecret, maxCharges: options.maxCharges });
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, close: () => app.close() };
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

async function main(): Promise<void> {
  const sandbox = await startSandboxServer({
    port: envInt('SANDBOX_PORT', 4000, 0, 65535),
    host: process.env.SANDBOX_HOST?.trim() || '127.0.0.1',
    webhookSecret: process.env.SANDBOX_WEBHOOK_SECRET || undefined,
    maxCharges: envInt('SANDBOX_MAX_CHARGES', DEFAULT_MAX_CHARGES, 1, 10_000_000),
    logLevel: process.env.LOG_LEVEL?.trim() || 'info',
  });
  console.log(`Sandbox PSP listening on ${sandbox.url} (events ${process.env.SANDBOX_WEBHOOK_SECRET ? 'signed' : 'unsigned'})`);
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

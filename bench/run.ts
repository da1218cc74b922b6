/**
 * `npm run bench`: the gateway and the sandbox PSP as separate processes, driven with autocannon.
 *
 * 1. Direct call to the sandbox PSP (`POST /charges`): the baseline a gateway adds to.
 * 2. `POST /v1/payments/create` through the gateway, on the embedded database, then on PostgreSQL
 *    when DATABASE_URL is set: requests/s, p50/p99, and the latency the gateway adds at p50.
 * 3. The event path (when the webhook pipeline is present): events/s accepted at
 *    `POST /webhooks/sandbox`, and intake-to-merchant latency (p50/p99) at a steady rate.
 *
 * Added latency is measured twice: at full load (50 connections, where it is mostly queueing once
 * the gateway's CPU is saturated) and with one connection (what a single request pays).
 *
 * Figures are printed, never asserted. Options (env): BENCH_DURATION (s, default 10),
 * BENCH_CONNECTIONS (default 50), BENCH_EVENT_RATE (events/s, default 500), BENCH_EVENTS=false
 * to skip the event path.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';

const ROOT = resolve(__dirname, '../..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const EVENT_RATE = Number(process.env.BENCH_EVENT_RATE ?? 500);
const ADMIN_TOKEN = `bench-admin-${randomBytes(8).toString('hex')}`;

interface Figures {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

function startProcess(script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [join(ROOT, script)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGKILL') console.error(`${script} exited with ${code ?? signal}`);
  });
  return child;
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

function figures(label: string, result: autocannon.Result): Figures {
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function load(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((done, fail) => {
    // A run is bounded by `amount` when given, otherwise by BENCH_DURATION.
    const bound = options.amount === undefined ? { duration: DURATION } : {};
    autocannon({ connections: CONNECTIONS, ...bound, ...options }, (error, result) => (error ? fail(error) : done(result)));
  });
}

/** The credential the standalone sandbox requires and the gateway's adapter presents. */
const SANDBOX_API_TOKEN = `bench-sandbox-${randomBytes(12).toString('hex')}`;

const paymentBody = () =>
  JSON.stringify({
    amount: 10.5,
    currency: 'BRL',
    recipientDocument: '12345678909',
    recipientName: 'Ana Souza',
    description: 'Bench',
    externalId: `bench-${randomBytes(6).toString('hex')}`,
  });

async function benchSandboxDirect(sandboxUrl: string, connections = CONNECTIONS): Promise<Figures> {
  const result = await load({
    connections,
    url: `${sandboxUrl}/charges`,
    method: 'POST',
    requests: [
      {
        setupRequest: (req) => {
          const txid = randomBytes(16).toString('hex');
          return {
            ...req,
            headers: { 'content-type': 'application/json', 'idempotency-key': txid, authorization: `Bearer ${SANDBOX_API_TOKEN}` },
            body: JSON.stringify({
              txid,
              amount: '10.50',
              currency: 'BRL',
              description: 'Bench',
              externalId: `bench-${txid.slice(0, 8)}`,
              recipient: { document: '12345678909', name: 'Ana Souza' },
              expiresIn: 3600,
              notificationUrl: 'http://127.0.0.1:9/webhooks/sandbox',
            }),
          };
        },
      },
    ],
  });
  return figures(`sandbox PSP, direct POST /charges (${connections} conn.)`, result);
}

async function adminPost<T>(gatewayUrl: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${gatewayUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data?: unknown };
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data as T;
}

async function benchGatewayCreates(gatewayUrl: string, apiKey: string, label: string, connections = CONNECTIONS): Promise<Figures> {
  const result = await load({
    connections,
    url: `${gatewayUrl}/v1/payments/create`,
    method: 'POST',
    requests: [
      {
        setupRequest: (req) => ({
          ...req,
          headers: { 'content-type': 'application/json', 'x-merchant-key': apiKey, 'idempotency-key': randomBytes(12).toString('hex') },
          body: paymentBody(),
        }),
      },
    ],
  });
  return figures(label, result);
}

/** A merchant endpoint that records when each forwarded event arrives. */
async function startReceiver(): Promise<{ server: Server; url: string; arrivals: Map<string, number> }> {
  const arrivals = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const now = performance.now();
      try {
        const event = JSON.parse(body) as { data?: { id?: string } };
        if (event.data?.id) arrivals.set(event.data.id, now);
      } catch {
        /* ignore */
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals };
}

async function createPayments(gatewayUrl: string, apiKey: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  const worker = async () => {
    while (ids.length < count) {
      const res = await fetch(`${gatewayUrl}/v1/payments/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-merchant-key': apiKey, 'idempotency-key': randomBytes(12).toString('hex') },
        body: paymentBody(),
      });
      const json = (await res.json()) as { data?: { id: string } };
      if (res.status === 201 && json.data) ids.push(json.data.id);
      else throw new Error(`creating a payment for the event bench failed: ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return ids.slice(0, count);
}

const eventBody = (paymentId: string) => JSON.stringify({ event: 'payment.confirmed', id: `evt_bench_${randomBytes(10).toString('hex')}`, data: { id: paymentId, amount: 10.5 } });

async function benchEvents(gatewayUrl: string, apiKey: string, merchantId: string, label: string): Promise<string[]> {
  const probe = await fetch(`${gatewayUrl}/webhooks/sandbox`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  if (probe.status === 404) return [`${label}: the webhook pipeline is not present; event path skipped`];
  const receiver = await startReceiver();
  try {
    await fetch(`${gatewayUrl}/admin/api/merchants/${merchantId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ webhook_url: receiver.url }),
    });
    // Intake throughput: as fast as it goes, each event confirming a distinct pending payment.
    const intakePayments = await createPayments(gatewayUrl, apiKey, Math.min(20_000, 1500 * DURATION));
    let next = 0;
    const intake = await load({
      url: `${gatewayUrl}/webhooks/sandbox`,
      method: 'POST',
      requests: [
        {
          setupRequest: (req) => {
            const id = intakePayments[next++ % intakePayments.length]!;
            return { ...req, headers: { 'content-type': 'application/json' }, body: eventBody(id) };
          },
        },
      ],
    });
    const intakeFigures = figures(`${label}: events accepted at POST /webhooks/sandbox`, intake);
    await new Promise((r) => setTimeout(r, 3000)); // let the deliveries of the burst drain

    // Intake to merchant at a steady rate.
    const steadyPayments = await createPayments(gatewayUrl, apiKey, EVENT_RATE * DURATION);
    const sentAt = new Map<string, number>();
    let index = 0;
    receiver.arrivals.clear();
    await load({
      url: `${gatewayUrl}/webhooks/sandbox`,
      method: 'POST',
      overallRate: EVENT_RATE,
      connections: Math.min(CONNECTIONS, EVENT_RATE),
      amount: steadyPayments.length,
      requests: [
        {
          setupRequest: (req) => {
            const id = steadyPayments[index++ % steadyPayments.length]!;
            sentAt.set(id, performance.now());
            return { ...req, headers: { 'content-type': 'application/json' }, body: eventBody(id) };
          },
        },
      ],
    });
    const deadline = Date.now() + 15_000;
    while (receiver.arrivals.size < sentAt.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const latencies = [...sentAt].flatMap(([id, start]) => (receiver.arrivals.has(id) ? [receiver.arrivals.get(id)! - start] : [])).sort((a, b) => a - b);
    const pct = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]! : NaN);
    return [
      row(intakeFigures),
      `${label}: intake to merchant at ${EVENT_RATE} events/s: p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms ` +
        `(${latencies.length}/${sentAt.size} delivered within the wait)`,
    ];
  } finally {
    receiver.server.close();
  }
}

function row(f: Figures): string {
  const problems = f.non2xx || f.errors ? ` (non-2xx ${f.non2xx}, errors ${f.errors})` : '';
  return `${f.label.padEnd(58)} ${f.rps.toFixed(0).padStart(6)} req/s   p50 ${String(f.p50).padStart(4)} ms   p99 ${String(f.p99).padStart(4)} ms${problems}`;
}

async function benchDatabase(kind: 'embedded' | 'postgres', sandboxUrl: string, direct: Figures, directSingle: Figures): Promise<string[]> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const gateway = startProcess('dist/src/main.js', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...(kind === 'postgres' ? { DATABASE_URL: process.env.DATABASE_URL! } : { DATABASE_URL: '' }),
    ADMIN_API_TOKEN: ADMIN_TOKEN,
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password-123',
    SECRETS_KEY: randomBytes(32).toString('hex'),
    SANDBOX_BASE_URL: sandboxUrl,
    SANDBOX_API_TOKEN,
    SANDBOX_ENABLED: 'false',
    RATE_LIMIT_PER_SECOND: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
  });
  try {
    await waitFor(`${gatewayUrl}/health`);
    const merchant = await adminPost<{ id: string }>(gatewayUrl, '/admin/api/merchants', { name: 'Bench' });
    const key = await adminPost<{ key: string }>(gatewayUrl, `/admin/api/merchants/${merchant.id}/api-keys`);
    const creates = await benchGatewayCreates(gatewayUrl, key.key, `gateway (${kind}), POST /v1/payments/create (${CONNECTIONS} conn.)`);
    const single = await benchGatewayCreates(gatewayUrl, key.key, `gateway (${kind}), POST /v1/payments/create (1 conn.)`, 1);
    const lines = [
      row(creates),
      `${`gateway (${kind}) adds at p50, ${CONNECTIONS} conn.`.padEnd(58)} ${(creates.p50 - direct.p50).toFixed(1)} ms over the direct sandbox call`,
      row(single),
      `${`gateway (${kind}) adds at p50, 1 conn.`.padEnd(58)} ${(single.p50 - directSingle.p50).toFixed(1)} ms over the direct sandbox call`,
    ];
    if (process.env.BENCH_EVENTS !== 'false') lines.push(...(await benchEvents(gatewayUrl, key.key, merchant.id, `gateway (${kind})`)));
    return lines;
  } finally {
    await stop(gateway);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const sandboxPort = await freePort();
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = startProcess('dist/src/providers/sandbox/server/standalone.js', { SANDBOX_PORT: String(sandboxPort), SANDBOX_API_TOKEN, LOG_LEVEL: 'warn' });
  try {
    await waitFor(`${sandboxUrl}/health`);
    console.log(`bench: ${DURATION}s per run, ${CONNECTIONS} connections, node ${process.version}`);
    const direct = await benchSandboxDirect(sandboxUrl);
    const directSingle = await benchSandboxDirect(sandboxUrl, 1);
    console.log(row(direct));
    console.log(row(directSingle));
    const kinds: ('embedded' | 'postgres')[] = process.env.DATABASE_URL ? ['embedded', 'postgres'] : ['embedded'];
    for (const kind of kinds) {
      const result = await benchDatabase(kind, sandboxUrl, direct, directSingle);
      result.forEach((line) => console.log(line));
    }
    if (!process.env.DATABASE_URL) console.log('(set DATABASE_URL=postgres://… to measure on PostgreSQL too)');
  } finally {
    await stop(sandbox);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

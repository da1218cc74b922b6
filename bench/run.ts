/**
 * `npm run bench [scenario …]`: the gateway measured black-box over HTTP, beside the floor (a
 * hand-written Fastify + `pg` app doing the same work, bench/floor.ts), on PostgreSQL and on the
 * embedded database. docs/performance.md says what each scenario does and what its figures mean.
 *
 * Scenarios: create, read, callbacks, scale, workers (all by default; name some to run only them).
 * PostgreSQL is measured when BENCH_DATABASE_URL or DATABASE_URL is set (in a scratch database
 * created beside it and dropped after); BENCH_DATABASES=postgres,embedded picks databases.
 * Options (env): BENCH_DURATION (s per run, default 10), BENCH_CONNECTIONS (default 32),
 * BENCH_CALLBACKS (burst size, default 5000), BENCH_EVENT_RATE (the steady callbacks' rate; default
 * 60% of the floor's burst rate, else 500/s), BENCH_SCALE_ROWS (default 1000000),
 * BENCH_FLOOR_NODE_FLAGS, BENCH_FLOOR=stack (against the stack's own floor, bench/stack-floor.ts,
 * instead of the bare one; STACK_FLOOR_TRANSPORT=gateway sends its calls through the gateway's
 * transport). Figures are printed, never asserted.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChildProcess, execFileSync } from 'node:child_process';
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from '../src/common/sandbox-wire/sandbox-signature';
import {
  CONNECTIONS,
  cpuSecondsOf,
  DURATION,
  type Figures,
  freePort,
  load,
  memoryOf,
  paced,
  percentile,
  ROOT,
  scratchDatabase,
  startProcess,
  stop,
  Table,
  waitFor,
} from './harness';
import { seedPayments, withSql } from './seed';

/** The Node flags the measured checkout's `npm start` runs the gateway with (`node --flag … scripts/start.js`). */
function startScriptNodeFlags(): string {
  const { scripts } = JSON.parse(readFileSync(join(process.env.BENCH_GATEWAY_ROOT ?? ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return scripts.start
    .split(' ')
    .filter((word) => word.startsWith('--'))
    .join(' ');
}

const SCENARIOS = ['create', 'read', 'callbacks', 'scale', 'workers'] as const;
type Scenario = (typeof SCENARIOS)[number];
type Kind = 'postgres' | 'embedded';

const ADMIN_TOKEN = `bench-admin-${randomBytes(8).toString('hex')}`;
const SANDBOX_API_TOKEN = `bench-sandbox-${randomBytes(12).toString('hex')}`;
/** The sandbox's callbacks are signed, as a production gateway requires; the floor verifies the same signature. */
const SANDBOX_WEBHOOK_SECRET = `bench-callbacks-${randomBytes(12).toString('hex')}`;
const CALLBACKS = Number(process.env.BENCH_CALLBACKS ?? 5_000);
/** Another checkout's build to measure instead of this one (its bench is this one's), for before-and-after figures. */
const GATEWAY_ROOT = process.env.BENCH_GATEWAY_ROOT;
/** Node's flags for the gateway, as `npm start` passes them (BENCH_NODE_FLAGS overrides, for comparing). */
const GATEWAY_NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? startScriptNodeFlags()).split(' ').filter(Boolean);
/** Node's flags for the floor (BENCH_FLOOR_NODE_FLAGS, none by default): to profile it as the gateway is. */
const FLOOR_NODE_FLAGS = (process.env.BENCH_FLOOR_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** Which floor: the bare one (bench/floor.ts), or with BENCH_FLOOR=stack the same work through Nest, class-validator, TypeORM and axios (bench/stack-floor.ts). */
const STACK_FLOOR = process.env.BENCH_FLOOR === 'stack';
const FLOOR_SCRIPT = STACK_FLOOR ? 'dist/bench/stack-floor.js' : 'dist/bench/floor.js';
const SCALE_ROWS = Number(process.env.BENCH_SCALE_ROWS ?? 1_000_000);

const table = new Table([
  { title: 'scenario', width: 34 },
  { title: 'database', width: 8 },
  { title: 'req/s', width: 7, right: true },
  { title: 'p50 ms', width: 6, right: true },
  { title: 'p99 ms', width: 6, right: true },
  { title: 'floor/s', width: 7, right: true },
  { title: 'ratio', width: 5, right: true },
  { title: 'CPU ms/req', width: 13, right: true },
  { title: 'RSS MB', width: 11, right: true },
  { title: 'notes', width: 30 },
]);
/** Figures kept for the ratios printed later (embedded against PostgreSQL). */
const measured = new Map<string, number>();

/** The issue's goals, each with what was measured against it, printed at the end. */
interface Goal {
  goal: string;
  met: boolean;
  shown: string;
}
const goals: Goal[] = [];
function goal(text: string, value: number, met: (v: number) => boolean, shown = value.toFixed(2)): void {
  if (Number.isFinite(value)) goals.push({ goal: text, met: met(value), shown });
}

const paymentBody = () =>
  JSON.stringify({
    amount: 10.5,
    currency: 'BRL',
    recipientDocument: '12345678909',
    recipientName: 'Ana Souza',
    description: 'Bench',
    externalId: `bench-${randomBytes(6).toString('hex')}`,
  });

interface Gateway {
  kind: Kind;
  url: string;
  process: ChildProcess;
  dataDir: string;
  databaseUrl?: string;
  apiKey: string;
  merchantId: string;
}

async function admin<T>(url: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data?: unknown };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data as T;
}

async function startGateway(
  kind: Kind,
  sandboxUrl: string,
  options: { databaseUrl?: string; dataDir?: string; workers?: number } = {},
): Promise<Omit<Gateway, 'apiKey' | 'merchantId'>> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gw-bench-'));
  const child = startProcess(
    'dist/src/main.js',
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: kind === 'postgres' ? options.databaseUrl! : '',
      ADMIN_API_TOKEN: ADMIN_TOKEN,
      ADMIN_EMAIL: 'bench@example.com',
      ADMIN_PASSWORD: 'bench-password-123',
      SECRETS_KEY: 'b'.repeat(64),
      SANDBOX_BASE_URL: sandboxUrl,
      SANDBOX_API_TOKEN,
      SANDBOX_WEBHOOK_SECRET,
      SANDBOX_ENABLED: 'false',
      RATE_LIMIT_PER_SECOND: '0',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      ...(options.workers ? { WORKERS: String(options.workers) } : {}),
    },
    GATEWAY_ROOT,
    GATEWAY_NODE_FLAGS,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`);
  return { kind, url, process: child, dataDir, databaseUrl: options.databaseUrl };
}

async function createOne(gw: Gateway): Promise<{ id: string }> {
  const res = await fetch(`${gw.url}/v1/payments/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-merchant-key': gw.apiKey, 'idempotency-key': randomBytes(12).toString('hex') },
    body: paymentBody(),
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}`);
  return ((await res.json()) as { data: { id: string } }).data;
}

/** Creates at full load; returns the figures and the ids of what was created. */
async function createLoad(url: string, apiKey: string, pid?: number): Promise<{ figures: Figures; ids: string[] }> {
  const ids: string[] = [];
  const figures = await load(
    {
      url: `${url}/v1/payments/create`,
      method: 'POST',
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            headers: { 'content-type': 'application/json', 'x-merchant-key': apiKey, 'idempotency-key': randomBytes(12).toString('hex') },
            body: paymentBody(),
          }),
          onResponse: (status, body) => {
            if (status === 201) ids.push((JSON.parse(body) as { data: { id: string } }).data.id);
          },
        },
      ],
    },
    pid,
  );
  return { figures, ids };
}

async function readLoad(url: string, apiKey: string, paths: string[], pid?: number): Promise<Figures> {
  let next = 0;
  return load({ url, requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length], headers: { 'x-merchant-key': apiKey } }) }] }, pid);
}

/** The most the process held during the run, and its peak since it started (which includes start-up and earlier runs). */
function mb(f: Figures, pid: number | undefined): string | undefined {
  const peak = memoryOf(pid)?.peakMb;
  return f.rssMb === undefined ? undefined : `${f.rssMb.toFixed(0)} (pk ${peak?.toFixed(0) ?? '?'})`;
}

function problems(f: Figures): string {
  return f.non2xx || f.errors ? `non-2xx ${f.non2xx}, errors ${f.errors}` : '';
}

/** The gateway's CPU per request, and the floor's beside it: the cost ratio that contention on a small machine does not blur. */
function cpuColumn(f: Figures, floor?: Figures): string | undefined {
  if (f.cpuMs === undefined) return undefined;
  return floor?.cpuMs === undefined ? f.cpuMs.toFixed(2) : `${f.cpuMs.toFixed(2)} / ${floor.cpuMs.toFixed(2)}`;
}

function report(name: string, kind: Kind, f: Figures, extra: { floor?: Figures; memory?: string; notes?: string } = {}): void {
  measured.set(`${name}/${kind}`, f.rps);
  const onPostgres = measured.get(`${name}/postgres`);
  const vsPostgres = kind === 'embedded' && onPostgres ? `${(f.rps / onPostgres).toFixed(2)}× PostgreSQL` : '';
  if (kind === 'embedded' && onPostgres && /^(create|read|callbacks):/.test(name)) goal(`${name.split(':')[0]}: embedded ≥ 0.5× PostgreSQL`, f.rps / onPostgres, (v) => v >= 0.5);
  if (extra.floor) goal(`${name.split(':')[0]}: ≥ 1.0× the floor (PostgreSQL)`, f.rps / extra.floor.rps, (v) => v >= 1);
  table.row([
    name,
    kind,
    f.rps.toFixed(0),
    f.p50,
    f.p99,
    extra.floor?.rps.toFixed(0),
    extra.floor ? (f.rps / extra.floor.rps).toFixed(2) : undefined,
    cpuColumn(f, extra.floor),
    extra.memory,
    [
      extra.notes,
      vsPostgres,
      problems(f),
      extra.floor && problems(extra.floor) ? `floor: ${problems(extra.floor)}` : '',
      // What the floor held beside it: the part of the gateway's memory its stack alone accounts for (BENCH_FLOOR=stack).
      extra.floor?.rssMb !== undefined ? `floor RSS ${extra.floor.rssMb.toFixed(0)} MB` : '',
    ]
      .filter(Boolean)
      .join('; '),
  ]);
}

/** A merchant endpoint that notes when each forwarded event arrives, by payment id. */
async function startReceiver(): Promise<{ server: Server; url: string; arrivals: Map<string, number> }> {
  const arrivals = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = performance.now();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id?: string } };
        if (event.data?.id) arrivals.set(event.data.id, now);
      } catch {
        /* not an event */
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals };
}

const eventBody = (paymentId: string) => JSON.stringify({ event: 'payment.confirmed', id: `evt_bench_${randomBytes(10).toString('hex')}`, data: { id: paymentId, amount: 10.5 } });
/** The sandbox's signature of a callback body, which the gateway and the floor both verify. */
const signed = (body: string): Record<string, string> => ({ [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(SANDBOX_WEBHOOK_SECRET, body, Date.now() / 1000) });

async function waitForArrivals(arrivals: Map<string, number>, expected: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (arrivals.size < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

/** Pending payments for the callback scenario, written by SQL (the embedded gateway is restarted around it), and the pending payment they copy. */
async function pendingPayments(gw: Gateway, count: number, sandboxUrl: string): Promise<{ gw: Gateway; ids: string[]; template: string }> {
  const template = await createOne(gw);
  if (gw.kind === 'postgres')
    return { gw, template: template.id, ids: await withSql({ url: gw.databaseUrl! }, (sql) => seedPayments(sql, template.id, count, { returnIds: true, fresh: true })) };
  await stop(gw.process);
  const ids = await withSql({ dataDir: gw.dataDir }, (sql) => seedPayments(sql, template.id, count, { returnIds: true, fresh: true }));
  const restarted = await startGateway('embedded', sandboxUrl, { dataDir: gw.dataDir });
  return { gw: { ...gw, ...restarted }, ids, template: template.id };
}

/**
 * Before each measured run on PostgreSQL: the vacuum that the previous run's writes (10,000
 * payments moved by a burst) would start on their own, and a CHECKPOINT, so that neither lands in
 * the next run, which would otherwise pay for its predecessor (the floor's and the gateway's runs
 * alternate).
 */
async function settle(gw: Gateway): Promise<void> {
  if (gw.kind !== 'postgres') return;
  await withSql({ url: gw.databaseUrl! }, async (sql) => {
    await sql('VACUUM ANALYZE payments, payment_events, webhook_deliveries, webhook_delivery_attempts, idempotency_records');
    await sql('CHECKPOINT');
  });
}

/** Who takes the sandbox's callbacks: the gateway, or the floor on the same tables. */
interface CallbackTarget {
  url: string;
  pid: number | undefined;
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * A burst of callbacks, each confirming a distinct pending payment, timed until the merchant has
 * every forward. The CPU per event counts from the first callback to the last forward, so the
 * deliveries' work is in it.
 */
async function callbackBurst(target: CallbackTarget, ids: string[], receiver: Receiver): Promise<Figures & { forwarded: number; intake: number }> {
  receiver.arrivals.clear();
  let next = 0;
  const cpuBefore = cpuSecondsOf(target.pid);
  const started = performance.now();
  const accepted = await load(
    {
      url: `${target.url}/webhooks/sandbox`,
      method: 'POST',
      amount: ids.length,
      requests: [
        {
          setupRequest: (req) => {
            const body = eventBody(ids[next++]!);
            return { ...req, headers: { 'content-type': 'application/json', ...signed(body) }, body };
          },
        },
      ],
    },
    target.pid,
  );
  await waitForArrivals(receiver.arrivals, ids.length, 60_000);
  const last = Math.max(...ids.map((id) => receiver.arrivals.get(id) ?? 0));
  const forwarded = ids.filter((id) => receiver.arrivals.has(id)).length;
  const cpuMs = ((cpuSecondsOf(target.pid) - cpuBefore) * 1000) / Math.max(1, forwarded);
  return { ...accepted, rps: forwarded / ((last - started) / 1000), cpuMs, forwarded, intake: accepted.rps };
}

/** Callbacks at a steady rate, each timed from the PSP's POST to the merchant's receipt. */
async function callbackPaced(target: CallbackTarget, ids: string[], rate: number, receiver: Receiver): Promise<Figures & { forwarded: number }> {
  receiver.arrivals.clear();
  const sentAt = new Map<string, number>();
  const cpuBefore = cpuSecondsOf(target.pid);
  const steady = await paced(
    `${target.url}/webhooks/sandbox`,
    ids.length,
    rate,
    (i) => {
      const id = ids[i]!;
      sentAt.set(id, performance.now());
      return eventBody(id);
    },
    target.pid,
    signed,
  );
  await waitForArrivals(receiver.arrivals, sentAt.size, 30_000);
  const latencies = [...sentAt].flatMap(([id, at]) => (receiver.arrivals.has(id) ? [receiver.arrivals.get(id)! - at] : [])).sort((a, b) => a - b);
  const cpuMs = ((cpuSecondsOf(target.pid) - cpuBefore) * 1000) / Math.max(1, latencies.length);
  return { ...steady, p50: Math.round(percentile(latencies, 50)), p99: Math.round(percentile(latencies, 99)), cpuMs, forwarded: latencies.length };
}

/** The steady rate: BENCH_EVENT_RATE, else 60% of the floor's burst rate (as PostgreSQL's floor measured it when the embedded run comes after). */
let pacedRate = process.env.BENCH_EVENT_RATE ? Number(process.env.BENCH_EVENT_RATE) : undefined;
const STEADY_SECONDS = 5;

async function callbacks(gwIn: Gateway, sandboxUrl: string, floor?: CallbackTarget): Promise<Gateway> {
  const receiver = await startReceiver();
  try {
    await admin(gwIn.url, 'PATCH', `/admin/api/merchants/${gwIn.merchantId}`, { webhook_url: receiver.url });
    const steadyGuess = (pacedRate ?? 500) * Math.min(DURATION, STEADY_SECONDS);
    const seeded = await pendingPayments(gwIn, (floor ? 2 : 1) * CALLBACKS + (floor ? 0 : steadyGuess), sandboxUrl);
    const gw = seeded.gw;
    const target = { url: gw.url, pid: gw.process.pid };

    await settle(gw);
    const floorBurst = floor ? await callbackBurst(floor, seeded.ids.slice(CALLBACKS), receiver) : undefined;
    if (floorBurst && pacedRate === undefined) pacedRate = Math.max(50, Math.round(floorBurst.rps * 0.6));
    const rate = pacedRate ?? 500;
    await settle(gw);
    const burst = await callbackBurst(target, seeded.ids.slice(0, CALLBACKS), receiver);
    report('callbacks: burst, to the merchant', gw.kind, burst, {
      floor: floorBurst,
      memory: mb(burst, gw.process.pid),
      notes: `${burst.forwarded}/${CALLBACKS} forwarded; intake ${burst.intake.toFixed(0)}/s${floorBurst && floorBurst.forwarded < CALLBACKS ? `; floor forwarded ${floorBurst.forwarded}` : ''}`,
    });

    // Latency at a steady rate, from the PSP's callback to the merchant's endpoint.
    const steadyCount = rate * Math.min(DURATION, STEADY_SECONDS);
    const steadyIds = floor
      ? await withSql({ url: gw.databaseUrl! }, (sql) => seedPayments(sql, seeded.template, 2 * steadyCount, { returnIds: true, fresh: true }))
      : seeded.ids.slice(CALLBACKS);
    await settle(gw);
    const floorSteady = floor ? await callbackPaced(floor, steadyIds.slice(steadyCount), rate, receiver) : undefined;
    await settle(gw);
    const steady = await callbackPaced(target, steadyIds.slice(0, steadyCount), rate, receiver);
    if (floorSteady)
      goal(
        `callbacks: p99 at ${rate}/s, the floor's ÷ the gateway's ≥ 1.0`,
        floorSteady.p99 / steady.p99,
        (v) => v >= 1,
        `${(floorSteady.p99 / steady.p99).toFixed(2)} (${floorSteady.p99} / ${steady.p99} ms)`,
      );
    table.row([
      `callbacks: ${rate}/s, callback to merchant`,
      gw.kind,
      steady.rps.toFixed(0),
      steady.p50,
      steady.p99,
      floorSteady ? `p99 ${floorSteady.p99}` : undefined,
      floorSteady ? (floorSteady.p99 / steady.p99).toFixed(2) : undefined,
      cpuColumn(steady, floorSteady),
      mb(steady, gw.process.pid),
      [`${steady.forwarded}/${steadyCount} forwarded`, floorSteady ? `floor p50 ${floorSteady.p50} ms` : '', problems(steady)].filter(Boolean).join('; '),
    ]);
    return gw;
  } finally {
    receiver.server.close();
  }
}

/** Reads by id, and the newest page, at 10 thousand payments and then at SCALE_ROWS (PostgreSQL). */
async function scale(gw: Gateway, ids: string[]): Promise<void> {
  const template = ids[0] ?? (await createOne(gw)).id;
  const readIds = ids.length ? ids.slice(0, 1000) : [template];
  const byId = readIds.map((id) => `/v1/payments/${id}`);
  const count = await withSql({ url: gw.databaseUrl! }, async (sql) => Number((await sql('SELECT count(*) AS n FROM payments'))[0]!.n));
  const stages = [10_000, SCALE_ROWS];
  let base: number | undefined;
  let have = count;
  for (const rows of stages) {
    if (have < rows) {
      const seedStarted = performance.now();
      await withSql({ url: gw.databaseUrl! }, (sql) => seedPayments(sql, template, rows - have, { fillerQr: true, closed: true }));
      if (rows > 10_000) console.log(`  (seeded ${rows - have} payments in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s)`);
      have = rows;
    }
    const f = await readLoad(gw.url, gw.apiKey, byId, gw.process.pid);
    const first = base === undefined;
    base ??= f.rps;
    report(`scale: read by id at ${have.toLocaleString('en')} rows`, gw.kind, f, { notes: first ? 'baseline' : `${(base / f.rps).toFixed(2)}× slower than the first` });
    if (!first) goal(`reads by id at ${have.toLocaleString('en')} rows ≤ 1.2× slower than at 10,000`, base / f.rps, (v) => v <= 1.2);
    const list = await readLoad(gw.url, gw.apiKey, ['/v1/payments?limit=20', `/v1/payments?externalId=bench-none`], gw.process.pid);
    report(`scale: list + find at ${have.toLocaleString('en')}`, gw.kind, list, { notes: 'newest 20, and by externalId' });
  }
}

async function bootstrap(gw: Omit<Gateway, 'apiKey' | 'merchantId'>): Promise<Gateway> {
  const merchant = await admin<{ id: string }>(gw.url, 'POST', '/admin/api/merchants', { name: 'Bench' });
  const key = await admin<{ key: string }>(gw.url, 'POST', `/admin/api/merchants/${merchant.id}/api-keys`);
  return { ...gw, apiKey: key.key, merchantId: merchant.id };
}

/** The floor (FLOOR_SCRIPT) on the gateway's PostgreSQL database, with the same upstream and callback secret. */
async function startFloor(databaseUrl: string, sandboxUrl: string): Promise<{ process: ChildProcess; url: string; pid: number | undefined }> {
  const port = await freePort();
  const child = startProcess(
    FLOOR_SCRIPT,
    {
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      UPSTREAM_URL: sandboxUrl,
      UPSTREAM_TOKEN: SANDBOX_API_TOKEN,
      CALLBACK_SECRET: SANDBOX_WEBHOOK_SECRET,
    },
    ROOT,
    FLOOR_NODE_FLAGS,
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`);
  return { process: child, url, pid: child.pid };
}

/** A process holding only PGlite on the embedded gateway's data directory (bench/bare-pglite.ts): its resident memory, in MB. */
function barePgliteMb(dataDir: string): number {
  const out = execFileSync(process.execPath, [join(ROOT, 'dist/bench/bare-pglite.js'), dataDir], { encoding: 'utf8' });
  return (JSON.parse(out) as { rssMb: number }).rssMb;
}

async function benchDatabase(kind: Kind, chosen: Set<Scenario>, sandboxUrl: string, databaseUrl?: string): Promise<void> {
  let gw = await bootstrap(await startGateway(kind, sandboxUrl, { databaseUrl }));
  if (kind === 'embedded') {
    // Measured as it runs from its second start on: the first creates the database (initdb), once
    // per installation, and the memory that takes is not the gateway's at work.
    await stop(gw.process);
    gw = { ...gw, ...(await startGateway('embedded', sandboxUrl, { dataDir: gw.dataDir })) };
  }
  const withFloor = kind === 'postgres';
  let floor = withFloor && (chosen.has('create') || chosen.has('read')) ? await startFloor(databaseUrl!, sandboxUrl) : undefined;
  let createRssMb: number | undefined;
  try {
    let created: string[] = [];
    if (chosen.has('create')) {
      await settle(gw);
      const floorFigures = floor ? (await createLoad(floor.url, gw.apiKey, floor.pid)).figures : undefined;
      await settle(gw);
      const { figures, ids } = await createLoad(gw.url, gw.apiKey, gw.process.pid);
      created = ids;
      createRssMb = figures.rssMb;
      report('create: POST /v1/payments/create', kind, figures, { floor: floorFigures, memory: mb(figures, gw.process.pid) });
      if (figures.rssMb !== undefined && kind === 'postgres')
        goal(`RSS under the create load (${kind}) ≤ 300 MB`, figures.rssMb, (v) => v <= 300, `${figures.rssMb.toFixed(0)} MB`);
    }
    if (chosen.has('read')) {
      if (created.length === 0) for (let i = 0; i < 200; i++) created.push((await createOne(gw)).id);
      const paths = created.slice(0, 5000).map((id) => `/v1/payments/${id}`);
      const floorFigures = floor ? await readLoad(floor.url, gw.apiKey, paths, floor.pid) : undefined;
      const figures = await readLoad(gw.url, gw.apiKey, paths, gw.process.pid);
      report('read: GET /v1/payments/:id', kind, figures, { floor: floorFigures, memory: mb(figures, gw.process.pid) });
    }
    if (floor) await stop(floor.process);
    floor = undefined;
    if (chosen.has('scale')) {
      if (kind === 'postgres') await scale(gw, created);
      else console.log('  (scale runs on PostgreSQL only)');
    }
    if (chosen.has('callbacks')) {
      floor = withFloor ? await startFloor(databaseUrl!, sandboxUrl) : undefined;
      gw = await callbacks(gw, sandboxUrl, floor);
      if (floor) await stop(floor.process);
      floor = undefined;
    }
    if (chosen.has('workers') && kind === 'postgres') await workers(gw, sandboxUrl);
    await stop(gw.process);
    if (kind === 'embedded' && createRssMb !== undefined) {
      const bare = barePgliteMb(gw.dataDir);
      const above = createRssMb - bare;
      console.log(
        `  (a bare PGlite process on the same data directory: ${bare.toFixed(0)} MB resident; the gateway under the create load ${createRssMb.toFixed(0)} MB, ${above.toFixed(0)} MB above it)`,
      );
      goal('RSS under the create load (embedded) ≤ 80 MB above bare PGlite', above, (v) => v <= 80, `${above.toFixed(0)} MB above ${bare.toFixed(0)} MB`);
    }
  } finally {
    if (floor) await stop(floor.process);
    await stop(gw.process);
    rmSync(gw.dataDir, { recursive: true, force: true });
  }
}

/** Creates/s with WORKERS=1 and WORKERS=2 (node:cluster) on one PostgreSQL. */
async function workers(current: Gateway, sandboxUrl: string): Promise<void> {
  await stop(current.process);
  let one: number | undefined;
  for (const n of [1, 2]) {
    const started = await startGateway('postgres', sandboxUrl, { databaseUrl: current.databaseUrl, workers: n });
    try {
      const { figures } = await createLoad(started.url, current.apiKey, started.process.pid);
      one ??= figures.rps;
      report(`workers: create, WORKERS=${n}`, 'postgres', figures, { notes: n === 1 ? `${availableParallelism()} cores here` : `${(figures.rps / one).toFixed(2)}× WORKERS=1` });
      if (n === 2) goal(`creates with WORKERS=2 ≥ 1.7× WORKERS=1 (${availableParallelism()} cores)`, figures.rps / one, (v) => v >= 1.7);
    } finally {
      await stop(started.process);
    }
  }
}

async function main(): Promise<void> {
  const asked = process.argv.slice(2).filter((a) => a !== '--');
  const unknown = asked.filter((a) => !(SCENARIOS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`unknown scenario ${unknown.join(', ')}; choose from ${SCENARIOS.join(', ')}`);
  const chosen = new Set<Scenario>(asked.length ? (asked as Scenario[]) : SCENARIOS);
  const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || undefined;
  const kinds = (process.env.BENCH_DATABASES?.split(',') ?? (databaseUrl ? ['postgres', 'embedded'] : ['embedded'])) as Kind[];
  if (kinds.includes('postgres') && !databaseUrl) throw new Error('BENCH_DATABASES names postgres: set BENCH_DATABASE_URL (or DATABASE_URL)');

  const sandboxPort = await freePort();
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = startProcess('dist/src/sandbox-psp/standalone.js', { SANDBOX_PORT: String(sandboxPort), SANDBOX_API_TOKEN, LOG_LEVEL: 'warn' });
  const started = performance.now();
  try {
    await waitFor(`${sandboxUrl}/health`);
    console.log(
      `bench: ${[...chosen].join(', ')}; ${DURATION} s per run, ${CONNECTIONS} connections, node ${process.version} ${GATEWAY_NODE_FLAGS.join(' ') || '(no flags)'}, ${availableParallelism()} cores${STACK_FLOOR ? `; floor: ${FLOOR_SCRIPT}` : ''}`,
    );
    for (const kind of kinds) {
      if (kind === 'postgres') {
        const scratch = await scratchDatabase(databaseUrl!);
        try {
          await benchDatabase('postgres', chosen, sandboxUrl, scratch.url);
        } finally {
          await scratch.drop();
        }
      } else {
        await benchDatabase('embedded', chosen, sandboxUrl);
      }
    }
    if (!databaseUrl) console.log('(set BENCH_DATABASE_URL=postgres://… to measure PostgreSQL and the floor too)');
    if (goals.length) {
      console.log(
        STACK_FLOOR
          ? '\ngoals (docs/performance.md), with "the floor" read as the stack floor (BENCH_FLOOR=stack): the goals themselves are against the bare one:'
          : '\ngoals (docs/performance.md):',
      );
      for (const g of goals) console.log(`  ${g.met ? 'met    ' : 'not met'}  ${g.goal.padEnd(58)} ${g.shown}`);
    }
    console.log(`bench: done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await stop(sandbox);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

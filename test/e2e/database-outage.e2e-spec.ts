import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiClients } from '../helpers/clients';
import { eventually } from '../helpers/eventually';
import { paymentBody } from '../helpers/factories';
import { ensureBuilt, GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';
import { http, HttpResult } from '../helpers/http';
import { PrivatePostgres, privatePostgresUnavailable } from '../helpers/private-postgres';
import { freePort } from '../helpers/test-env';

/**
 * A database outage (docs/operations.md, Database outage): the gateway's PostgreSQL stops while the
 * gateway keeps running, with creates in flight at the PSP and more arriving. Every request the
 * outage fails is 503 SERVICE_UNAVAILABLE with Retry-After, the log says so once (no stack per
 * request) and once more when the database is back, and a retry with the same Idempotency-Key right
 * after is served (201), not held off by the claim the failed request could not release.
 *
 * The server is the spec's own (initdb into a temporary directory), so stopping it disturbs no
 * other spec; the spec runs in the e2e project only, as the database under test is always this one.
 */
const unavailable = privatePostgresUnavailable();
const describeWithServer = unavailable ? describe.skip : describe;

/** Creates whose claim is taken before the database stops, and whose PSP answer comes after. */
const IN_FLIGHT = 3;
/** Creates that arrive while the database is down. */
const ARRIVING = 4;

/**
 * The simulated PSP (the gateway's own /sandbox) behind a gate: while `holding`, charge creations
 * wait here until `letThrough()`, so the gateway's requests sit between claiming their key and
 * recording the charge.
 */
class HeldPsp {
  holding = false;
  private readonly held: (() => void)[] = [];
  private server!: Server;
  url = '';

  constructor(private readonly target: () => string) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void (async () => {
        const body = await read(req);
        if (this.holding && req.method === 'POST' && req.url === '/charges') await new Promise<void>((resume) => this.held.push(resume));
        const headers: Record<string, string> = {};
        for (const name of ['authorization', 'content-type', 'idempotency-key']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
        const answer = await fetch(`${this.target()}${req.url}`, { method: req.method, headers, body: body.length ? body : undefined });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })().catch(() => res.destroy());
    });
    await new Promise<void>((listening) => this.server.listen(0, '127.0.0.1', listening));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get waiting(): number {
    return this.held.length;
  }

  letThrough(): void {
    this.holding = false;
    for (const resume of this.held.splice(0)) resume();
  }

  close(): Promise<void> {
    this.letThrough();
    this.server.closeAllConnections();
    return new Promise((closed) => this.server.close(() => closed()));
  }
}

async function read(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The gateway's JSON log lines. */
function logLines(gw: GatewayProcess): { level: number; msg?: string; err?: unknown; [field: string]: unknown }[] {
  return gw
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg?: string });
}

describeWithServer(`a database outage while the gateway runs${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let pg: PrivatePostgres;
  let psp: HeldPsp;
  let gw: GatewayProcess;
  let apiKey: string;
  beforeAll(async () => {
    await ensureBuilt();
    pg = await PrivatePostgres.create();
    const port = await freePort();
    psp = new HeldPsp(() => `http://127.0.0.1:${port}/sandbox`);
    await psp.start();
    gw = await startGatewayProcess({ DATABASE_URL: pg.url, PORT: String(port), SANDBOX_BASE_URL: psp.url, LOG_LEVEL: 'info' });
    apiKey = (await apiClients(gw.url).admin.newMerchant()).apiKey;
  }, 120_000);
  afterAll(async () => {
    if (gw) {
      gw.kill('SIGKILL');
      await gw.exited;
    }
    await psp?.close();
    await pg?.destroy();
  });

  // One body per key: a retry is the same request again.
  const bodies = new Map<string, ReturnType<typeof paymentBody>>();
  const create = (key: string) => {
    if (!bodies.has(key)) bodies.set(key, paymentBody({ externalId: `order-${key}` }));
    return http(gw.url, 'POST', '/v1/payments/create', { body: bodies.get(key), headers: { 'x-merchant-key': apiKey, 'idempotency-key': key } });
  };
  const callback = () =>
    http(gw.url, 'POST', '/webhooks/sandbox', {
      body: { event: 'payment.confirmed', id: 'evt_sbx_outage', created_at: new Date().toISOString(), data: { id: 'sbx_unknown', amount: 10.5, status: 'CONCLUIDA' } },
    });

  const expectServiceUnavailable = (res: HttpResult) => {
    expect({ status: res.status, body: res.body }).toEqual({
      status: 503,
      body: { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) }, request_id: res.headers.get('x-request-id'), provider: expect.any(String) },
    });
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 10).toBe(true);
  };

  it('answers 503 with Retry-After, logs the outage once, and frees the failed requests’ keys for their retries', async () => {
    expect((await create('before-outage')).status).toBe(201);

    // Creates that have claimed their key and wait at the PSP when the database goes away.
    psp.holding = true;
    const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) => create(`in-flight-${i}`));
    await eventually(
      () => psp.waiting,
      (n) => n === IN_FLIGHT,
    );
    await pg.stop();
    psp.letThrough();
    const failedInFlight = await Promise.all(inFlight);
    const arriving = await Promise.all(Array.from({ length: ARRIVING }, (_, i) => create(`arriving-${i}`)));
    const callbackAnswer = await callback();

    const answered503 = [...failedInFlight, ...arriving, callbackAnswer];
    for (const res of answered503) expectServiceUnavailable(res);

    // One line says the database is unreachable; no request logs a stack of its own (the access log
    // still has its line per request, without one).
    const duringOutage = logLines(gw);
    expect(duringOutage.filter((line) => /database unreachable/i.test(line.msg ?? ''))).toHaveLength(1);
    expect(duringOutage.filter((line) => /unexpected error/i.test(line.msg ?? ''))).toEqual([]);
    expect(duringOutage.filter((line) => line.err !== undefined && (line.request_id !== undefined || line.context === 'HTTP'))).toEqual([]);

    await pg.start();
    // Right away, before any lock could lapse: each failed request's key is free for its retry.
    const retried = await Promise.all(Array.from({ length: IN_FLIGHT }, (_, i) => create(`in-flight-${i}`)));
    expect(retried.map((res) => [res.status, res.body?.error?.code])).toEqual(Array.from({ length: IN_FLIGHT }, () => [201, undefined]));
    expect((await create('arriving-0')).status).toBe(201);

    // And the end of the outage is logged once, with how long it lasted and what it cost.
    const back = await eventually(
      () => logLines(gw).filter((line) => /database reachable again/i.test(line.msg ?? '')),
      (lines) => lines.length > 0,
    );
    expect(back).toHaveLength(1);
    expect(back[0]!.msg).toMatch(new RegExp(`after \\d+(\\.\\d+)? s, ${answered503.length} requests answered 503`));
  }, 60_000);
});

import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { apiClients } from '../helpers/clients';
import { eventually } from '../helpers/eventually';
import { paymentBody } from '../helpers/factories';
import { type GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';
import { http } from '../helpers/http';
import { describeOn, itOn } from '../helpers/test-env';

/**
 * WORKERS=2: one gateway as a cluster primary and two workers sharing its port (src/cluster.ts).
 * Which worker served a request is the `pid` of its access line, as an operator would read it.
 */
jest.setTimeout(180_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LogLine = Record<string, any>;

const CREATES = 12;

describeOn('postgres', 'several processes share one database')('the gateway on two workers', () => {
  let gw: GatewayProcess;
  let adminToken: string;
  beforeAll(async () => {
    // No credentials given: the primary generates them, and every worker must hold the same ones
    // (DATA_DIR is :memory:, so no file could make them agree).
    gw = await startGatewayProcess({ WORKERS: '2', LOG_LEVEL: 'info', ADMIN_API_TOKEN: undefined, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, SECRETS_KEY: undefined });
    // /health answers once one worker listens; the banner waits for both.
    await eventually(
      () => gw.output(),
      (output) => output.includes('Pix gateway listening'),
    );
    adminToken = /admin API token \(shown once[^)]*\): (\S+)/.exec(gw.output())![1]!;
  });
  afterAll(async () => {
    if (gw.child.exitCode === null) gw.kill('SIGKILL');
    await gw.exited;
  });

  const jsonLines = (): LogLine[] =>
    gw
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  const pidsServing = (route: string, status: number) =>
    new Set(
      jsonLines()
        .filter((line) => line.route === route && line.status === status && line.duration_ms !== undefined)
        .map((line) => line.pid as number),
    );

  /**
   * One request on a connection of its own (`agent: false`): the primary hands out connections, not
   * requests, so a kept-alive one would stay with one worker. Resolves with the status.
   */
  function onNewConnection(method: string, path: string, headers: Record<string, string>, json?: unknown): Promise<number> {
    const body = json === undefined ? undefined : JSON.stringify(json);
    const sent = body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    return new Promise((resolve, reject) => {
      const req = request(`${gw.url}${path}`, { method, agent: false, headers: sent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  const createOnNewConnection = (apiKey: string) => onNewConnection('POST', '/v1/payments/create', { 'x-merchant-key': apiKey, 'idempotency-key': randomUUID() }, paymentBody());

  /** payments_created_total{provider="sandbox",outcome="created"} in one scrape of /metrics. */
  async function createdCounter(): Promise<number> {
    const res = await http(gw.url, 'GET', '/metrics', { headers: { authorization: `Bearer ${adminToken}` } });
    expect(res.status).toBe(200);
    const sample = /^payments_created_total\{provider="sandbox",outcome="created"\} (\d+)$/m.exec(res.text);
    return sample ? Number(sample[1]) : 0;
  }

  it('prints one banner naming the workers, and the warning about per-worker rate limits once', () => {
    const output = gw.output();
    expect(output.match(/Pix gateway listening on/g)).toHaveLength(1);
    expect(output).toContain('  workers: 2 processes sharing port');
    expect(output.match(/WORKERS=2 without REDIS_URL/g)).toHaveLength(1);
  });

  it('serves requests from both workers, with the credentials the primary generated, and /metrics counts across both', async () => {
    const { admin } = apiClients(gw.url, adminToken);
    const shop = await admin.newMerchant();
    const created = [];
    for (let i = 0; i < CREATES; i++) created.push(await createOnNewConnection(shop.apiKey));
    expect(created).toEqual(Array(CREATES).fill(201));
    const reads = [];
    for (let i = 0; i < 4; i++) reads.push(await onNewConnection('GET', '/admin/api/payments', { authorization: `Bearer ${adminToken}` }));
    expect(reads).toEqual([200, 200, 200, 200]);
    expect(pidsServing('/admin/api/payments', 200).size).toBe(2);

    const creators = await eventually(
      () => pidsServing('/v1/payments/create', 201),
      (pids) => pids.size === 2,
    );
    expect(creators.has(gw.child.pid!)).toBe(false);
    // Every scrape, whichever worker answers it, counts every worker's creates.
    expect(await createdCounter()).toBe(CREATES);
    expect(await createdCounter()).toBe(CREATES);
  });

  it('replaces a worker that dies, without a second banner', async () => {
    const [victim] = pidsServing('/v1/payments/create', 201);
    process.kill(victim!, 'SIGKILL');
    await eventually(
      () => gw.output(),
      (output) => output.includes(`Worker ${victim} exited (killed by SIGKILL); starting another in 500 ms`),
    );
    // A third process serves requests: the new worker; and scrapes answer with it among the workers.
    // (A scrape while it boots waits for it at most 5 s: on a machine busy enough that its boot holds
    // its event loop longer, that one scrape fails and the next answers.)
    const shop = await apiClients(gw.url, adminToken).admin.newMerchant();
    await eventually(
      async () => {
        expect(await createOnNewConnection(shop.apiKey)).toBe(201);
        const scrape = (await http(gw.url, 'GET', '/metrics', { headers: { authorization: `Bearer ${adminToken}` } })).status;
        return { pids: [...pidsServing('/v1/payments/create', 201)], scrape };
      },
      ({ pids, scrape }) => pids.length === 3 && scrape === 200,
      30_000,
    );
    expect(gw.output().match(/Pix gateway listening on/g)).toHaveLength(1);
  });

  it('on SIGTERM has every worker shut down, then exits 0', async () => {
    gw.kill('SIGTERM');
    expect(await gw.exited).toBe(0);
    expect(gw.output().match(/SIGTERM received: each of the 2 workers/g)).toHaveLength(1);
    // Each worker closed its own pool on the way out.
    expect(jsonLines().filter((line) => line.msg === 'PostgreSQL pool closed').length).toBeGreaterThanOrEqual(2);
  });
});

itOn('embedded', 'the refusal is about the embedded database')('refuses WORKERS=2 on the embedded database with one config line, before forking', async () => {
  const gw = await startGatewayProcess({ WORKERS: '2' }, { waitHealthy: false });
  expect(await gw.exited).toBe(1);
  expect(gw.output().trim().split('\n')).toEqual(['config: WORKERS=2 requires DATABASE_URL: the embedded database serves one process.']);
});

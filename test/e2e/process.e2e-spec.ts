import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSandboxServer } from '../../src/providers/sandbox/server/standalone';
import { newMerchantOverHttp } from '../helpers/admin-http';
import { paymentBody } from '../helpers/factories';
import { startGatewayProcess } from '../helpers/gateway-process';
import { eventually } from '../helpers/eventually';
import { http } from '../helpers/http';
import { describeOn, TEST_ADMIN_TOKEN } from '../helpers/test-env';

/** The gateway as a real process: start-up, refusals in production, one process per data dir, SIGTERM. */
jest.setTimeout(180_000);

describeOn('embedded', 'DATA_DIR, its lock file and generated credentials are the embedded database’s')('gateway process', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-proc-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('refuses insecure settings under NODE_ENV=production with one clear line each', async () => {
    const gw = await startGatewayProcess(
      { NODE_ENV: 'production', SECRETS_KEY: undefined, ADMIN_API_TOKEN: undefined, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, DATA_DIR: tempDir() },
      { waitHealthy: false },
    );
    expect(await gw.exited).toBe(1);
    const lines = gw.output().trim().split('\n').filter((line) => line.startsWith('config: '));
    expect(lines).toEqual([
      expect.stringContaining('SECRETS_KEY'),
      expect.stringContaining('DATABASE_URL'),
      expect.stringContaining('ADMIN_API_TOKEN'),
      expect.stringContaining('ADMIN_EMAIL and ADMIN_PASSWORD'),
      expect.stringContaining('PUBLIC_BASE_URL must be https://'),
    ]);
  });

  it('generates admin credentials on first start, prints them once, and keeps them', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, ADMIN_API_TOKEN: undefined, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, SECRETS_KEY: undefined, LOG_LEVEL: 'warn' };
    const first = await startGatewayProcess(env);
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const secrets = JSON.parse(readFileSync(join(dataDir, 'local-secrets.json'), 'utf8'));
    expect(first.output()).toContain(secrets.adminApiToken);
    expect(first.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/);

    const second = await startGatewayProcess(env);
    expect(second.output()).not.toContain(secrets.adminApiToken);
    const res = await http(second.url, 'GET', '/admin/api/payments', { headers: { authorization: `Bearer ${secrets.adminApiToken}` } });
    expect(res.status).toBe(200);
    second.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('refuses a second process on the same embedded data directory', async () => {
    const dataDir = tempDir();
    const first = await startGatewayProcess({ DATA_DIR: dataDir });
    const second = await startGatewayProcess({ DATA_DIR: dataDir }, { waitHealthy: false });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`Another gateway process (pid ${first.child.pid})`);
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, 'gateway.lock'))).toBe(false);
  });

  it('on SIGTERM lets the request in flight finish, then closes the database and exits 0', async () => {
    // The provider: a standalone sandbox PSP behind a proxy that holds each create until released.
    const sandbox = await startSandboxServer({ logLevel: 'silent' });
    let release!: () => void;
    const released = new Promise<void>((resolveRelease) => (release = resolveRelease));
    let arrived!: () => void;
    const createArrived = new Promise<void>((resolveArrived) => (arrived = resolveArrived));
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        if (req.method === 'POST' && req.url === '/charges') {
          arrived();
          await released;
        }
        try {
          const headers: Record<string, string> = {};
          for (const name of ['content-type', 'idempotency-key', 'authorization']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name] as string;
          const upstream = await fetch(`${sandbox.url}${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
          res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()));
        } catch (error) {
          res.writeHead(599).end(String(error));
        }
      });
    });
    await new Promise<void>((resolveListen) => proxy.listen(0, '127.0.0.1', () => resolveListen()));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const dataDir = tempDir();
      const gw = await startGatewayProcess({ DATA_DIR: dataDir, SANDBOX_BASE_URL: proxyUrl, SANDBOX_API_TOKEN: sandbox.apiToken, LOG_LEVEL: 'info' });
      const shop = await newMerchantOverHttp(gw.url, TEST_ADMIN_TOKEN);
      const inFlight = http(gw.url, 'POST', '/v1/payments/create', { body: paymentBody(), headers: { 'x-merchant-key': shop.apiKey, 'idempotency-key': 'sigterm' } });
      await createArrived;
      gw.kill('SIGTERM');
      // The gateway is closing while the provider still holds the call.
      await eventually(() => gw.output(), (output) => output.includes('SIGTERM received'));
      release();
      const res = await inFlight;
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
      expect(await gw.exited).toBe(0);
      expect(gw.output()).toContain('Embedded database closed');
      expect(existsSync(join(dataDir, 'gateway.lock'))).toBe(false);
    } finally {
      proxy.closeAllConnections();
      proxy.close();
      await sandbox.close();
    }
  });
});

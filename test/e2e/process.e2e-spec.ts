import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newMerchantOverHttp } from '../helpers/admin-http';
import { paymentBody } from '../helpers/factories';
import { startGatewayProcess } from '../helpers/gateway-process';
import { http } from '../helpers/http';
import { TEST_ADMIN_TOKEN } from '../helpers/test-app';

/** The gateway as a real process: start-up, refusals in production, one process per data dir, SIGTERM. */
jest.setTimeout(180_000);

describe('gateway process', () => {
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
    const dataDir = tempDir();
    const gw = await startGatewayProcess({ DATA_DIR: dataDir, UPSTREAM_TIMEOUT_MS: '5000', LOG_LEVEL: 'info' });
    const shop = await newMerchantOverHttp(gw.url, TEST_ADMIN_TOKEN);
    await http(gw.url, 'POST', '/sandbox/_control/failures', { body: { mode: 'timeout', operation: 'create' } });
    const request = { body: paymentBody(), headers: { 'x-merchant-key': shop.apiKey, 'idempotency-key': 'sigterm' } };
    const inFlight = http(gw.url, 'POST', '/v1/payments/create', request);
    // The same key answering 409 IDEMPOTENCY_IN_PROGRESS proves the first request is in flight.
    let probe = await http(gw.url, 'POST', '/v1/payments/create', request);
    while (probe.status !== 409 && probe.status !== 201) probe = await http(gw.url, 'POST', '/v1/payments/create', request);
    expect(probe.status).toBe(409);
    gw.kill('SIGTERM');
    const res = await inFlight;
    // Answered, not cut off: a 502 because the in-process sandbox PSP goes down with the server.
    expect(res.status).toBe(502);
    expect(await gw.exited).toBe(0);
    expect(gw.output()).toContain('Embedded database closed');
    expect(existsSync(join(dataDir, 'gateway.lock'))).toBe(false);
  });
});

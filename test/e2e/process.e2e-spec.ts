import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDirs } from '../helpers/factories';
import { startGatewayProcess } from '../helpers/gateway-process';
import { http } from '../helpers/http';
import { describeOn } from '../helpers/test-env';

/**
 * The gateway as a real process: start-up and refusals in production. One process per data
 * directory: embedded-lock.e2e-spec.ts; SIGTERM with a provider call in flight: shutdown-in-flight.e2e-spec.ts.
 */
jest.setTimeout(180_000);

describeOn('embedded', 'generated credentials are kept in DATA_DIR, the embedded database’s')('gateway process', () => {
  const tempDir = tempDirs('gw-proc-');

  it('refuses insecure settings under NODE_ENV=production with one clear line each', async () => {
    const gw = await startGatewayProcess(
      { NODE_ENV: 'production', SECRETS_KEY: undefined, ADMIN_API_TOKEN: undefined, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined, DATA_DIR: tempDir() },
      { waitHealthy: false },
    );
    expect(await gw.exited).toBe(1);
    const lines = gw
      .output()
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('config: '));
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
});

import { AppConfig, Secret } from './config/app-config';
import { restartDelayMs, workerEnv } from './cluster';

describe('cluster primary', () => {
  it('waits half a second before replacing a worker, doubling for each other death within the minute, up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(restartDelayMs)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });

  it('hands the workers the credentials it generated, so that all of them hold the same, and nothing it was given', () => {
    const config = new AppConfig({
      adminApiToken: new Secret('adm_generated-token-0123456789'),
      adminEmail: 'admin@localhost',
      adminPassword: new Secret('generated-password'),
      secretsKey: new Secret(Buffer.alloc(32, 0xab)),
    } as never);
    expect(workerEnv(config, ['adminApiToken', 'adminEmail', 'adminPassword', 'secretsKey'])).toEqual({
      ADMIN_API_TOKEN: 'adm_generated-token-0123456789',
      ADMIN_EMAIL: 'admin@localhost',
      ADMIN_PASSWORD: 'generated-password',
      SECRETS_KEY: 'ab'.repeat(32),
    });
    expect(workerEnv(config, [])).toEqual({});
  });
});

import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { ConnectionTimeouts, createApp } from '../../src/app';
import type { Clock } from '../../src/domain/clock';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { AppConfig } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';
import { loadSandboxSettings, type SandboxSettings } from '../../src/providers/sandbox/settings';
import { apiContract, watchApiContract } from './api-contract';
import { adminClient, type AdminClient, merchantClient, type MerchantClient } from './clients';
import { Factories } from './factories';
import { createTestPostgresDatabase, databaseFor, freePort, TestDatabaseKind, testEnv } from './test-env';

// What specs that boot no app need lives in test-env.ts (it loads none of the app); re-exported here.
export * from './test-env';

/**
 * What NODE_ENV=production needs beyond testEnv(): PostgreSQL, a long admin token and password, an
 * https public URL. Merge over testEnv() with a DATABASE_URL (production refuses the embedded database).
 */
export const TEST_PRODUCTION_ADMIN_TOKEN = 'prod-admin-token-0123456789abcdef0123456789';
export function productionEnv(databaseUrl: string, overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ADMIN_API_TOKEN: TEST_PRODUCTION_ADMIN_TOKEN,
    ADMIN_PASSWORD: 'correct horse battery staple',
    PUBLIC_BASE_URL: 'https://pix.example.com',
    ...overrides,
  };
}

/** The sandbox's own settings (SANDBOX_*) as the app read them at boot. */
export function sandboxSettings(config: AppConfig): SandboxSettings {
  return loadSandboxSettings(config);
}

/** The credential the sandbox adapter presents to the simulated PSP; tests that drive /sandbox routes present it too. */
export function sandboxAuth(config: AppConfig): Record<string, string> {
  return { authorization: `Bearer ${sandboxSettings(config).apiToken.reveal()}` };
}

/** A booted gateway for one spec file, with the data factories (Factories) on its database. */
export class TestApp extends Factories {
  constructor(
    readonly app: NestFastifyApplication,
    readonly config: AppConfig,
    /** Base URL where the app listens on 127.0.0.1 (a real port, for real HTTP clients). */
    readonly url: string,
    private readonly dropDatabase: () => Promise<void>,
  ) {
    super(app.get(DataSource), app.get(SecretBox));
    this.admin = adminClient(url, config.adminApiToken.reveal());
  }

  /** The admin API over HTTP, with this app's admin token. */
  readonly admin: AdminClient;

  /** The merchant API over HTTP, as the holder of `apiKey`. */
  merchant(apiKey: string): MerchantClient {
    return merchantClient(this.url, apiKey);
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.dropDatabase();
  }
}

/**
 * Boots the whole gateway as production does (createApp), listening on a free loopback port, on
 * this project's database (see databaseFor): a fresh PostgreSQL database of its own, dropped on
 * close, or an embedded one in memory. With REDIS_URL in `env`, give it a `throttleKeyPrefix` of
 * the test's own, since other runs share that Redis.
 */
export async function startTestApp(
  options: {
    db?: TestDatabaseKind;
    env?: Record<string, string | undefined>;
    throttleKeyPrefix?: string;
    clock?: Clock;
    /** Slow-client deadlines shorter than production's (createApp's `timeouts`). */
    timeouts?: Partial<ConnectionTimeouts>;
  } = {},
): Promise<TestApp> {
  const pg = databaseFor(options.db, options.env) === 'postgres' ? await createTestPostgresDatabase() : undefined;
  // Port 0 is resolved after listen; the sandbox base URL needs the real port, so listen first on a
  // reserved port then point the config at it. Another process may take that port between the two
  // (EADDRINUSE): the app is then built again on another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const env = testEnv({ PORT: String(port), ...options.env, ...(pg ? { DATABASE_URL: pg.url } : {}) });
    const loaded = loadConfig(env, { persistGenerated: false }).config;
    // Apps given one prefix on one REDIS_URL share their rate limits and throttling, as processes of one deployment do.
    const config = options.throttleKeyPrefix ? new AppConfig({ ...loaded, throttleKeyPrefix: options.throttleKeyPrefix }) : loaded;
    const app = await createApp(config, { clock: options.clock, timeouts: options.timeouts });
    const fastify = app.getHttpAdapter().getInstance();
    watchApiContract(fastify);
    try {
      await app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await app.close();
      if (attempt < 3 && (error as NodeJS.ErrnoException).code === 'EADDRINUSE') continue;
      throw error;
    }
    await apiContract.load(fastify);
    return new TestApp(app, config, `http://127.0.0.1:${port}`, async () => pg?.drop());
  }
}

/** startTestApp under NODE_ENV=production (productionEnv), on a fresh PostgreSQL database. */
export async function startProductionTestApp(env: Record<string, string | undefined> = {}): Promise<TestApp> {
  return startTestApp({ db: 'postgres', env: { ...productionEnv(''), ...env } });
}

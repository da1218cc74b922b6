// The test environment without the app: which database a spec runs on (one per Jest project,
// jest.config.js), fresh PostgreSQL databases, free ports, the gateway's test settings. It imports
// nothing of src/, so specs that start no app in-process (gateway processes, static checks) do not
// load it; test-app.ts re-exports all of it.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export type TestDatabaseKind = 'embedded' | 'postgres';

/**
 * The database this Jest project runs its specs on: the embedded one, or PostgreSQL in the
 * `medium:postgres` and `e2e:postgres` projects (jest.config.js), which set TEST_DB=postgres.
 * startTestApp() and startGatewayProcess() boot on it unless told otherwise.
 */
export function testDatabase(): TestDatabaseKind {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'embedded';
}

const DATABASE_NAMES: Record<TestDatabaseKind, string> = { embedded: 'embedded database', postgres: 'PostgreSQL' };

/**
 * describe() for tests that can only run on one database, and why: in the other project the block
 * is skipped, and its title (which Jest lists with the skipped tests) gives the reason.
 * `describeOn('postgres', 'two processes share one database')('…', () => { … })`.
 */
export function describeOn(kind: TestDatabaseKind, reason: string): (title: string, fn: () => void) => void {
  return (title, fn) => (runsOn(kind) ? describe : describe.skip)(`${title} (${DATABASE_NAMES[kind]} only: ${reason})`, fn);
}

/** it() for one test that can only run on one database; see describeOn. */
export function itOn(kind: TestDatabaseKind, reason: string): (title: string, fn: () => Promise<void>, timeoutMs?: number) => void {
  return (title, fn, timeoutMs) => (runsOn(kind) ? it : it.skip)(`${title} (${DATABASE_NAMES[kind]} only: ${reason})`, fn, timeoutMs);
}

function runsOn(kind: TestDatabaseKind): boolean {
  return testDatabase() === kind && (kind === 'embedded' || Boolean(process.env.TEST_DATABASE_URL));
}

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';
export const TEST_SECRETS_KEY = 'a'.repeat(64);

/** A fresh, empty PostgreSQL database for one test file, dropped by the returned function. */
export async function createTestPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `gw_test_${randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Environment for a test app: embedded in memory unless a DATABASE_URL is given; quiet logs; fast jobs off. */
export function testEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: ':memory:', // the embedded database in memory (IN_MEMORY_DATA_DIR)
    // Never taken from the shell: gateway processes start with the test runner's environment.
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
    ADMIN_API_TOKEN: TEST_ADMIN_TOKEN,
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'correct horse battery staple',
    SECRETS_KEY: TEST_SECRETS_KEY,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_PER_SECOND: '0',
    JOB_INTERVAL_MS: '0',
    ...overrides,
  };
}

/**
 * The database a test app or process boots on: `db` when given; none of its own when `env` names
 * one (DATABASE_URL or DATA_DIR); otherwise this project's (testDatabase()).
 */
export function databaseFor(db: TestDatabaseKind | undefined, env: Record<string, string | undefined> = {}): TestDatabaseKind | undefined {
  return db ?? (env.DATABASE_URL !== undefined || env.DATA_DIR !== undefined ? undefined : testDatabase());
}

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

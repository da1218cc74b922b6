import { PRODUCTION_CONFIG_ENV as PRODUCTION } from '../testing/config-env';
import { ConfigError, loadConfig } from './load-config';

function problems(env: Record<string, string | undefined>, cores?: number): string[] {
  try {
    loadConfig(env, { persistGenerated: false, ...(cores ? { cores: () => cores } : {}) });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('loadConfig', () => {
  it('accepts a complete production configuration', () => {
    expect(problems(PRODUCTION)).toEqual([]);
  });

  it.each([
    ['an admin token shorter than 32 characters', { ADMIN_API_TOKEN: 'x'.repeat(31) }, /ADMIN_API_TOKEN must be at least 32 characters/],
    ['an admin token shorter than even development allows', { ADMIN_API_TOKEN: 'x'.repeat(10) }, /ADMIN_API_TOKEN must be at least 32 characters/],
    ['an admin password shorter than 12 characters', { ADMIN_PASSWORD: 'short-pass1' }, /ADMIN_PASSWORD must be at least 12 characters/],
    ['a plain-HTTP public URL', { PUBLIC_BASE_URL: 'http://pix.example.com' }, /PUBLIC_BASE_URL must be https:\/\//],
    ['no public URL (the default is http://localhost)', { PUBLIC_BASE_URL: undefined }, /PUBLIC_BASE_URL must be https:\/\//],
    ['no SECRETS_KEY', { SECRETS_KEY: undefined }, /requires SECRETS_KEY/],
    ['no DATABASE_URL', { DATABASE_URL: undefined }, /requires DATABASE_URL/],
  ])('refuses production with %s, in one line naming it', (_what, change, message) => {
    const found = problems({ ...PRODUCTION, ...change });
    expect(found).toEqual([expect.stringMatching(message)]);
  });

  it('reads ALLOW_HOMOLOGATION_ACCOUNTS as a boolean, false by default, and refuses anything else at boot', () => {
    expect(loadConfig(PRODUCTION, { persistGenerated: false }).config.allowHomologationAccounts).toBe(false);
    expect(loadConfig({ ...PRODUCTION, ALLOW_HOMOLOGATION_ACCOUNTS: 'true' }, { persistGenerated: false }).config.allowHomologationAccounts).toBe(true);
    expect(problems({ ...PRODUCTION, ALLOW_HOMOLOGATION_ACCOUNTS: 'maybe' })).toEqual([expect.stringMatching(/ALLOW_HOMOLOGATION_ACCOUNTS must be true or false/)]);
  });

  it('lists every weak production setting at once', () => {
    expect(problems({ ...PRODUCTION, ADMIN_API_TOKEN: 'y'.repeat(20), ADMIN_PASSWORD: 'short', PUBLIC_BASE_URL: 'http://x.example' })).toHaveLength(3);
  });

  it('keeps development permissive: short token of 16+, plain HTTP', () => {
    const { config } = loadConfig({ ADMIN_API_TOKEN: 'z'.repeat(16), DATA_DIR: ':memory:' }, { persistGenerated: false });
    expect(config).toMatchObject({ isProduction: false, publicBaseUrl: 'http://localhost:3000' });
  });

  it('keeps the environment for modules with settings of their own, hidden from logs', () => {
    const { config } = loadConfig({ DATA_DIR: ':memory:', SOME_PROVIDER_SETTING: 'x' }, { persistGenerated: false });
    expect(config.environment.reveal().SOME_PROVIDER_SETTING).toBe('x');
    expect(JSON.stringify(config)).not.toContain('SOME_PROVIDER_SETTING');
  });

  describe('TRUST_PROXY', () => {
    const trustProxy = (value: string | undefined) => loadConfig({ TRUST_PROXY: value, DATA_DIR: ':memory:' }, { persistGenerated: false }).config.trustProxy;

    it('trusts no proxy unless told', () => {
      expect(trustProxy(undefined)).toBe(false);
      expect(trustProxy('false')).toBe(false);
    });

    it('takes a hop count or a list of addresses and CIDR ranges', () => {
      expect(trustProxy('1')).toBe(1);
      expect(trustProxy('10.0.0.0/8, 192.168.1.7,::1')).toEqual(['10.0.0.0/8', '192.168.1.7', '::1']);
    });

    it.each(['yes please', '10.0.0.0/99', '300.1.1.1', '0', '17'])('refuses %j', (value) => {
      expect(problems({ TRUST_PROXY: value, DATA_DIR: ':memory:' })).toEqual([expect.stringContaining('TRUST_PROXY')]);
    });
  });

  it('checks REDIS_URL, METRICS_TOKEN and SHUTDOWN_TIMEOUT_MS', () => {
    expect(problems({ DATA_DIR: ':memory:', REDIS_URL: 'http://cache:6379', METRICS_TOKEN: 'short', SHUTDOWN_TIMEOUT_MS: 'soon' })).toEqual([
      expect.stringContaining('REDIS_URL'),
      expect.stringContaining('METRICS_TOKEN'),
      expect.stringContaining('SHUTDOWN_TIMEOUT_MS'),
    ]);
    const { config } = loadConfig({ DATA_DIR: ':memory:', REDIS_URL: 'redis://127.0.0.1:6379', METRICS_TOKEN: 'm'.repeat(16) }, { persistGenerated: false });
    expect(config.redisUrl?.reveal()).toBe('redis://127.0.0.1:6379');
    expect(String(config.metricsToken)).toBe('[secret]');
    expect(config.shutdownTimeoutMs).toBe(10_000);
  });

  it('reads DATABASE_POOL_SIZE and DATABASE_PREPARED_STATEMENTS, 20 and true unless told, and refuses a bad value at boot', () => {
    const { config } = loadConfig({ DATA_DIR: ':memory:' }, { persistGenerated: false });
    expect([config.databasePoolSize, config.databasePreparedStatements]).toEqual([20, true]);
    const told = loadConfig({ DATA_DIR: ':memory:', DATABASE_POOL_SIZE: '8', DATABASE_PREPARED_STATEMENTS: 'false' }, { persistGenerated: false }).config;
    expect([told.databasePoolSize, told.databasePreparedStatements]).toEqual([8, false]);
    expect(problems({ DATA_DIR: ':memory:', DATABASE_POOL_SIZE: '0', DATABASE_PREPARED_STATEMENTS: 'maybe' })).toEqual([
      'DATABASE_POOL_SIZE must be between 1 and 1000, got 0.',
      'DATABASE_PREPARED_STATEMENTS must be true or false, got "maybe".',
    ]);
  });

  it('reads HEAP_GROWING_PERCENT, 0 (V8 decides) unless told, and refuses a bad value at boot', () => {
    expect(loadConfig({ DATA_DIR: ':memory:' }, { persistGenerated: false }).config.heapGrowingPercent).toBe(0);
    expect(loadConfig({ DATA_DIR: ':memory:', HEAP_GROWING_PERCENT: '30' }, { persistGenerated: false }).config.heapGrowingPercent).toBe(30);
    expect(problems({ DATA_DIR: ':memory:', HEAP_GROWING_PERCENT: 'small' })).toEqual(['HEAP_GROWING_PERCENT must be a whole number, got "small".']);
  });

  describe('WORKERS', () => {
    const DB = { DATA_DIR: ':memory:', DATABASE_URL: 'postgres://gw@db:5432/gw' };
    const workers = (value: string | undefined, env: Record<string, string> = DB, cores = 8) =>
      loadConfig({ ...env, WORKERS: value }, { persistGenerated: false, cores: () => cores }).config.workers;

    it('is one process unless told, on either database', () => {
      expect(workers(undefined)).toBe(1);
      expect(workers('')).toBe(1);
      expect(workers('1', { DATA_DIR: ':memory:' })).toBe(1);
    });

    it('takes a count, or auto for the cores Node may use', () => {
      expect(workers('4')).toBe(4);
      expect(workers(' 2 ')).toBe(2);
      expect(workers('auto', DB, 6)).toBe(6);
      expect(workers('AUTO', DB, 3)).toBe(3);
      // One core: auto is one process, which the embedded database allows.
      expect(workers('auto', { DATA_DIR: ':memory:' }, 1)).toBe(1);
    });

    it.each(['0', '-2', '1.5', 'many', '257'])('refuses %j in one line', (value) => {
      expect(problems({ ...DB, WORKERS: value })).toEqual([`WORKERS must be a whole number from 1 to 256, or auto, got "${value}".`]);
    });

    it('refuses more than one process on the embedded database', () => {
      expect(problems({ DATA_DIR: ':memory:', WORKERS: '2' })).toEqual(['WORKERS=2 requires DATABASE_URL: the embedded database serves one process.']);
      expect(problems({ DATA_DIR: ':memory:', WORKERS: 'auto' }, 4)).toEqual(['WORKERS=auto (4 processes) requires DATABASE_URL: the embedded database serves one process.']);
    });
  });
});

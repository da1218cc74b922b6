import { PRODUCTION_CONFIG_ENV as PRODUCTION } from '../../testing/config-env';
import { ConfigError, loadConfig } from '../../config/load-config';
import { loadSandboxSettings, type SandboxSettings } from './settings';

const settings = (env: Record<string, string | undefined>): SandboxSettings => loadSandboxSettings(loadConfig(env, { persistGenerated: false }).config);

function problems(env: Record<string, string | undefined>): string[] {
  try {
    settings(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('loadSandboxSettings', () => {
  it('is on outside production, unsigned, served by the gateway itself', () => {
    const found = settings({ DATA_DIR: ':memory:', PORT: '4100' });
    expect(found).toMatchObject({ enabled: true, webhookSecret: undefined, baseUrl: 'http://127.0.0.1:4100/sandbox' });
  });

  it('is off in production unless asked for, and then only with a webhook secret, in one line', () => {
    expect(settings(PRODUCTION).enabled).toBe(false);
    expect(problems({ ...PRODUCTION, SANDBOX_ENABLED: 'true' })).toEqual([expect.stringMatching(/SANDBOX_ENABLED=true in production requires SANDBOX_WEBHOOK_SECRET/)]);
    expect(settings({ ...PRODUCTION, SANDBOX_ENABLED: 'true', SANDBOX_WEBHOOK_SECRET: 'sandbox-secret-0123456789' })).toMatchObject({ enabled: true });
  });

  it('refuses a SANDBOX_ENABLED that is not a boolean and a base URL that is not http(s)', () => {
    expect(problems({ DATA_DIR: ':memory:', SANDBOX_ENABLED: 'maybe', SANDBOX_BASE_URL: 'ftp://x' })).toEqual([
      expect.stringContaining('SANDBOX_ENABLED'),
      expect.stringContaining('SANDBOX_BASE_URL'),
    ]);
  });

  it('takes SANDBOX_API_TOKEN (16+ characters), else derives one from SECRETS_KEY', () => {
    expect(problems({ DATA_DIR: ':memory:', SANDBOX_API_TOKEN: 'short' })).toEqual([expect.stringContaining('SANDBOX_API_TOKEN')]);
    const given = settings({ DATA_DIR: ':memory:', SANDBOX_API_TOKEN: 's'.repeat(16) });
    expect(given.apiToken.reveal()).toBe('s'.repeat(16));
    expect(String(given.apiToken)).toBe('[secret]');
    const derived = settings(PRODUCTION).apiToken.reveal();
    expect(derived).toMatch(/^sbx_[A-Za-z0-9_-]{43}$/);
    expect(settings(PRODUCTION).apiToken.reveal()).toBe(derived);
    expect(settings({ ...PRODUCTION, SECRETS_KEY: 'c'.repeat(64) }).apiToken.reveal()).not.toBe(derived);
  });

  it('settles refunds after SANDBOX_REFUND_DELAY_MS (1.5 s by default), or only when told with "manual"; anything else is a problem', () => {
    const base = { DATA_DIR: ':memory:' };
    expect(settings(base).refundSettleDelayMs).toBe(1500);
    expect(settings({ ...base, SANDBOX_REFUND_DELAY_MS: '0' }).refundSettleDelayMs).toBe(0);
    expect(settings({ ...base, SANDBOX_REFUND_DELAY_MS: ' Manual ' }).refundSettleDelayMs).toBeNull();
    for (const bad of ['-1', '1.5', 'soon', '86400001']) expect(problems({ ...base, SANDBOX_REFUND_DELAY_MS: bad })).toEqual([expect.stringMatching(/SANDBOX_REFUND_DELAY_MS/)]);
  });
});

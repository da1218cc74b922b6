import { PRODUCTION_CONFIG_ENV as PRODUCTION } from '../../testing/config-env';
import { SystemClock } from '../../domain/clock';
import { loadConfig } from '../../config/load-config';
import { HttpTransport } from '../transport/http-transport';
import { SandboxAdapter } from './sandbox.adapter';
import { sandboxProvider } from './sandbox.registration';

function registrationFor(env: Record<string, string>) {
  const { config } = loadConfig({ DATA_DIR: ':memory:', ...env }, { persistGenerated: false });
  return sandboxProvider({ config, clock: new SystemClock(), transport: new HttpTransport() });
}

describe('sandboxProvider', () => {
  it('registers the adapter outside production', () => {
    const registration = registrationFor({ NODE_ENV: 'test' });
    expect(registration.adapters).toEqual([expect.any(SandboxAdapter)]);
  });

  it('keeps the adapter outside production when the gateway does not serve the sandbox (a standalone one is reached)', () => {
    const registration = registrationFor({ NODE_ENV: 'development', SANDBOX_ENABLED: 'false', SANDBOX_BASE_URL: 'http://127.0.0.1:4000' });
    expect(registration.adapters).toHaveLength(1);
    expect(registration.adapters[0]!.builtInAccount?.()).toMatchObject({ baseUrl: 'http://127.0.0.1:4000' });
  });

  it('leaves the sandbox out in production unless SANDBOX_ENABLED=true', () => {
    expect(registrationFor(PRODUCTION)).toEqual({ adapters: [] });
    expect(registrationFor({ ...PRODUCTION, SANDBOX_ENABLED: 'true', SANDBOX_WEBHOOK_SECRET: 'sandbox-secret-0123456789' }).adapters).toHaveLength(1);
  });
});

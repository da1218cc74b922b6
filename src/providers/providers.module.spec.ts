import { Test } from '@nestjs/testing';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { ConfigModule } from '../config/config.module';
import { loadConfig } from '../config/load-config';
import { ProviderRegistry } from './provider-registry';
import { ProvidersModule } from './providers.module';
import { SandboxProvider } from './sandbox/sandbox.provider';

const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://gateway@127.0.0.1:5432/gateway',
  SECRETS_KEY: 'b'.repeat(64),
  ADMIN_API_TOKEN: 'a-production-admin-token-of-32-chars',
  ADMIN_EMAIL: 'ops@example.com',
  ADMIN_PASSWORD: 'a-long-production-password',
  PUBLIC_BASE_URL: 'https://pix.example.com',
};

async function registryFor(env: Record<string, string>): Promise<ProviderRegistry> {
  const { config } = loadConfig({ DATA_DIR: ':memory:', ...env }, { persistGenerated: false });
  const moduleRef = await Test.createTestingModule({ imports: [ConfigModule.forRoot(config), ProvidersModule] }).compile();
  return moduleRef.get(ProviderRegistry);
}

describe('ProvidersModule', () => {
  it('registers the sandbox adapter, chosen by name', async () => {
    const registry = await registryFor({ NODE_ENV: 'test' });
    expect(registry.names()).toEqual(['sandbox']);
    expect(registry.get('sandbox')).toBeInstanceOf(SandboxProvider);
  });

  it('answers an unknown provider name with NOT_FOUND', async () => {
    const registry = await registryFor({ NODE_ENV: 'test' });
    expect(registry.find('stripe')).toBeUndefined();
    expect(() => registry.get('stripe')).toThrow(AppError);
    expect(() => registry.get('stripe')).toThrow(expect.objectContaining({ code: ErrorCode.NOT_FOUND }));
  });

  it('keeps the adapter outside production when the gateway does not serve the sandbox (a standalone one is reached)', async () => {
    const registry = await registryFor({ NODE_ENV: 'development', SANDBOX_ENABLED: 'false', SANDBOX_BASE_URL: 'http://127.0.0.1:4000' });
    expect(registry.has('sandbox')).toBe(true);
  });

  it('leaves the sandbox out in production unless SANDBOX_ENABLED=true', async () => {
    expect((await registryFor(PRODUCTION)).has('sandbox')).toBe(false);
    expect((await registryFor({ ...PRODUCTION, SANDBOX_ENABLED: 'true', SANDBOX_WEBHOOK_SECRET: 'sandbox-secret-0123456789' })).has('sandbox')).toBe(true);
  });
});

import { Test } from '@nestjs/testing';
import { ConfigModule } from '../config/config.module';
import { loadConfig } from '../config/load-config';
import { ProviderAdapters } from './provider-registry';
import { ProvidersModule } from './providers.module';

async function moduleFor(env: Record<string, string>) {
  const { config } = loadConfig({ DATA_DIR: ':memory:', ...env }, { persistGenerated: false });
  return Test.createTestingModule({ imports: [ConfigModule.forRoot(config), ProvidersModule] }).compile();
}

describe('ProvidersModule', () => {
  it('registers every adapter under its name: the Pix API family, Mercado Pago and the simulated PSP', async () => {
    const adapters = (await moduleFor({ NODE_ENV: 'test' })).get(ProviderAdapters);
    expect(adapters.names().sort()).toEqual(['bb', 'efi', 'inter', 'itau', 'mercadopago', 'pix-api', 'sandbox', 'santander', 'sicoob', 'sicredi']);
    expect(adapters.find('efi')?.name).toBe('efi');
    expect(adapters.find('stripe')).toBeUndefined();
  });

  it("offers built-in accounts only for providers that have one: real PSPs' credentials live on accounts", async () => {
    const adapters = (await moduleFor({ NODE_ENV: 'test' })).get(ProviderAdapters);
    expect(adapters.builtInNames()).toEqual(['sandbox']);
    expect(adapters.builtIn('efi')).toBeUndefined();
    expect(adapters.builtIn('stripe')).toBeUndefined();
    expect(adapters.builtIn('sandbox')?.ref).toMatchObject({ id: 'sandbox', provider: 'sandbox' });
  });

  it("fails the boot with a provider's own settings problems", async () => {
    await expect(moduleFor({ NODE_ENV: 'test', SANDBOX_API_TOKEN: 'short' })).rejects.toMatchObject({
      name: 'ConfigError',
      problems: [expect.stringContaining('SANDBOX_API_TOKEN')],
    });
  });
});

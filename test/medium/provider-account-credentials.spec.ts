import { TestingModule } from '@nestjs/testing';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { AccountFailureRepository } from '../../src/providers/routing/account-failures.repository';
import { WebhookUrlPolicy } from '../../src/common/net/webhook-url-policy';
import type { ProviderAdapter } from '../../src/providers/provider-adapter';
import { ProviderAdapters } from '../../src/providers/provider-registry';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProviderAccountsService } from '../../src/providers/provider-accounts/provider-accounts.service';
import { ProvidersModule } from '../../src/providers/providers.module';
import type { PixApiCredentials } from '../../src/providers/pix-api/credentials';
import { testPki } from '../../src/testing/certificates';
import { FakeClock } from '../../src/testing/fake-clock';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

const pki = testPki();

/**
 * Resolving an account reuses the last parse of its credentials (ParsedCredentialsCache) for as long
 * as the row is the same version and its certificate is valid by the gateway's clock; the spy counts
 * the real Pix API adapter's parses.
 */
describe(`provider account credentials, parsed once per version (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  /** The services as one process wires them: another call is another process (its own cache) on the same database. */
  const wire = () =>
    ctx.module(
      [ProviderAccountsService, AccountResolver, AccountBreakers, AccountFailureRepository, ProviderAccountRepository, MerchantProviderAccountRepository, WebhookUrlPolicy],
      [ProvidersModule],
    );
  let units: TestingModule;
  let accounts: ProviderAccountsService;
  let resolver: AccountResolver;
  let adapter: ProviderAdapter;
  let parses: jest.SpyInstance;
  const clock = new FakeClock(new Date());
  beforeAll(async () => {
    ctx = await newMediumContext({ clock });
    units = await wire();
    accounts = units.get(ProviderAccountsService);
    resolver = units.get(AccountResolver);
    adapter = units.get(ProviderAdapters).find('pix-api')!;
  });
  afterAll(() => ctx.close());
  beforeEach(() => {
    clock.set(new Date());
    parses = jest.spyOn(adapter, 'parseCredentials');
  });
  afterEach(() => parses.mockRestore());

  const pem = { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: pki.client.cert, private_key_pem: pki.client.key };
  const create = (credentials: Record<string, unknown> = pem) =>
    accounts.create({
      name: 'Banco Teste',
      provider: 'pix-api',
      base_url: 'https://psp.example.com',
      token_url: 'https://psp.example.com/oauth/token',
      pix_key: 'recebedor@example.com',
      credentials,
    });
  const clientId = (credentials: unknown) => (credentials as PixApiCredentials).clientId;

  it('parses once: every later resolve, for a payment or a callback, reuses the parse', async () => {
    const { id } = await create();
    parses.mockClear();
    const first = await resolver.byId(id);
    const again = [await resolver.byId(id), await resolver.forPayment({ provider: 'pix-api', providerAccountId: id }), await resolver.forCallback('pix-api', id)];
    expect(parses).toHaveBeenCalledTimes(1);
    for (const resolved of again) {
      expect(resolved.account.credentials).toBe(first.account.credentials);
      expect(resolved.account).toEqual(first.account);
    }
    expect(clientId(first.account.credentials)).toBe('client-1');
  });

  it('a PATCH of credentials or settings is seen by the next resolve', async () => {
    const { id } = await create();
    await resolver.byId(id);
    parses.mockClear();

    await accounts.update(id, { credentials: { ...pem, client_id: 'client-2' } });
    parses.mockClear(); // the PATCH's own check
    expect(clientId((await resolver.byId(id)).account.credentials)).toBe('client-2');
    expect(parses).toHaveBeenCalledTimes(1);

    await accounts.update(id, { pix_key: 'outra@example.com' });
    parses.mockClear();
    expect((await resolver.byId(id)).account.pixKey).toBe('outra@example.com');
    expect(parses).toHaveBeenCalledTimes(1);
    await resolver.byId(id);
    expect(parses).toHaveBeenCalledTimes(1);
  });

  it('a PATCH made by another process (another cache, the same database) is seen by the next resolve', async () => {
    const other = (await wire()).get(ProviderAccountsService);
    const { id } = await create();
    expect(clientId((await resolver.byId(id)).account.credentials)).toBe('client-1');
    await other.update(id, { credentials: { client_id: 'client-p12', client_secret: 'secret-1', pkcs12_base64: pki.clientP12.base64, pkcs12_password: pki.clientP12.password } });
    expect(clientId((await resolver.byId(id)).account.credentials)).toBe('client-p12');
  });

  it('sealed credentials replaced in the row without a new updated_at are opened again, and refused as before', async () => {
    const { id } = await create();
    await resolver.byId(id);
    await ctx.dataSource.query(`UPDATE provider_accounts SET credentials_enc = 'v1.AAAA.AAAA.AAAA' WHERE id = $1`, [id]);
    await expect(resolver.byId(id)).rejects.toMatchObject({
      code: 'ACCOUNT_UNUSABLE',
      reason: 'credentials',
      message: `The provider account ${id} cannot be used: its stored credentials cannot be opened with this SECRETS_KEY. Replace its credentials.`,
    });
  });

  it('refuses a certificate that expired after its parse was kept (AccountUnusableError), as without the cache', async () => {
    const created = await create();
    const expiresAt = new Date(created.credentials_summary.certificate_expires_at!);
    await resolver.byId(created.id);
    parses.mockClear();

    clock.set(new Date(expiresAt.getTime() - 1000));
    await resolver.byId(created.id);
    expect(parses).not.toHaveBeenCalled();

    clock.set(expiresAt);
    const refused = resolver.forCallback('pix-api', created.id);
    await expect(refused).rejects.toMatchObject({ code: 'ACCOUNT_UNUSABLE', reason: 'credentials', accountId: created.id });
    await expect(refused).rejects.toThrow(
      `The provider account ${created.id} cannot be used: credentials.certificate_pem holds a certificate that expired on ${expiresAt.toISOString()}`,
    );
    expect(parses).toHaveBeenCalledTimes(1);
    await expect(resolver.byId(created.id)).rejects.toMatchObject({ code: 'ACCOUNT_UNUSABLE' });
    expect(parses).toHaveBeenCalledTimes(2);
  });
});

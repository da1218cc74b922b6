import { WebhookUrlPolicy } from '../../src/common/net/webhook-url-policy';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProviderAccountsService } from '../../src/providers/provider-accounts/provider-accounts.service';
import { ProvidersModule } from '../../src/providers/providers.module';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { AccountFailureRepository } from '../../src/providers/routing/account-failures.repository';
import { testPki } from '../../src/testing/certificates';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

const pki = testPki();

/**
 * The receiver account the core reads on an ActingAccount comes from the account row the resolver's
 * lookup cache holds (docs/architecture.md, Lookup caches): answered from memory, and dropped when
 * the row changes, whoever changed it.
 */
describe(`provider account receiver account (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let accounts: ProviderAccountsService;
  let resolver: AccountResolver;
  let rows: ProviderAccountRepository;
  beforeAll(async () => {
    ctx = await newMediumContext();
    await ctx.changes.start();
    const units = await ctx.module(
      [ProviderAccountsService, AccountResolver, AccountBreakers, AccountFailureRepository, ProviderAccountRepository, MerchantProviderAccountRepository, WebhookUrlPolicy],
      [ProvidersModule],
    );
    accounts = units.get(ProviderAccountsService);
    resolver = units.get(AccountResolver);
    rows = units.get(ProviderAccountRepository);
  });
  afterAll(() => ctx.close());

  const receiver = { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' } as const;
  const create = () =>
    accounts.create({
      name: 'Banco Teste',
      provider: 'pix-api',
      base_url: 'https://psp.example.com',
      token_url: 'https://psp.example.com/oauth/token',
      pix_key: 'recebedor@example.com',
      credentials: { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: pki.client.cert, private_key_pem: pki.client.key },
      receiver_account: receiver,
    });

  it('stores it as JSON, reads it back from memory, and sees a PATCH at once', async () => {
    const { id } = await create();
    await ctx.caughtUp(); // the account's own notification, which clears the cache, is in
    expect((await ctx.dataSource.query('SELECT receiver_account FROM provider_accounts WHERE id = $1', [id]))[0].receiver_account).toEqual(receiver);
    const lookups = jest.spyOn(rows, 'findById');
    expect((await resolver.byId(id)).receiverAccount).toEqual(receiver);
    expect((await resolver.forPayment({ provider: 'pix-api', providerAccountId: id })).receiverAccount).toEqual(receiver);
    expect(lookups).toHaveBeenCalledTimes(1);

    await accounts.update(id, { receiver_account: null });
    expect((await resolver.byId(id)).receiverAccount).toBeNull();
    lookups.mockRestore();
  });

  it("sees a change made outside the gateway (an operator's SQL) once the database tells of it", async () => {
    const { id } = await create();
    await ctx.caughtUp();
    expect((await resolver.byId(id)).receiverAccount).toEqual(receiver);
    const savings = { agencia: '9708', conta: '012682', tipoConta: 'POUPANCA' };
    await ctx.dataSource.query(`UPDATE provider_accounts SET receiver_account = $2::jsonb WHERE id = $1`, [id, JSON.stringify(savings)]);
    await ctx.caughtUp(); // the UPDATE's notification is in: nothing of this process said the row changed
    expect((await resolver.byId(id)).receiverAccount).toEqual(savings);
  });
});

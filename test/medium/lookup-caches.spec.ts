import { AppError } from '../../src/common/errors/app-error';
import { ChangeFeed } from '../../src/database/change-feed';
import { createDatabaseSetup } from '../../src/database/database-options';
import { AdminMerchantsService } from '../../src/merchants/admin-merchants.service';
import { ApiKey } from '../../src/merchants/api-key.entity';
import { ApiKeyRepository } from '../../src/merchants/api-key.repository';
import { MerchantAuthService } from '../../src/merchants/merchant-auth.service';
import { ProvidersModule } from '../../src/providers/providers.module';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { MERCHANT_SERVICES } from '../helpers/merchant-services';
import { testDatabase } from '../helpers/test-env';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) => (error instanceof AppError ? error.code : Promise.reject(error)),
  );

describe(`lookup caches (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let merchants: AdminMerchantsService;
  let auth: MerchantAuthService;
  let keys: ApiKeyRepository;
  beforeAll(async () => {
    ctx = await newMediumContext();
    await ctx.changes.start();
    const moduleRef = await ctx.module(MERCHANT_SERVICES, [ProvidersModule]);
    merchants = moduleRef.get(AdminMerchantsService);
    auth = moduleRef.get(MerchantAuthService);
    keys = moduleRef.get(ApiKeyRepository);
  });
  afterAll(() => ctx.close());

  it('answers a known key from memory, and refuses it at once when this process revokes it', async () => {
    const merchant = await merchants.create({ name: 'Loja' });
    const issued = await merchants.issueKey(merchant.id);
    await ctx.caughtUp(); // the merchant's and the key's own notifications, which clear the cache, are in
    const lookups = jest.spyOn(keys, 'findActiveByKeyHash');
    for (let i = 0; i < 3; i++) await auth.authenticate(issued.key);
    expect(lookups).toHaveBeenCalledTimes(1);
    await merchants.revokeKey(merchant.id, issued.id);
    expect(await refusal(auth.authenticate(issued.key))).toBe('INVALID_MERCHANT_KEY');
    lookups.mockRestore();
  });

  it("hears a change made outside the gateway (an operator's SQL) and stops answering from memory", async () => {
    const merchant = await merchants.create({ name: 'Loja' });
    const issued = await merchants.issueKey(merchant.id);
    await ctx.caughtUp();
    await auth.authenticate(issued.key);
    await ctx.dataSource.query(`UPDATE merchants SET active = false WHERE id = $1`, [merchant.id]);
    await ctx.caughtUp(); // the UPDATE's notification is in: nothing of this process said the row changed
    expect(await refusal(auth.authenticate(issued.key))).toBe('INVALID_MERCHANT_KEY');
  });

  // Two processes on one database exist only on PostgreSQL: the embedded database is one process's.
  (testDatabase() === 'postgres' ? it : it.skip)('refuses a key in a second process once the first revokes it, by the commit’s notification', async () => {
    const merchant = await merchants.create({ name: 'Loja' });
    const issued = await merchants.issueKey(merchant.id);
    // The second process: its own feed on its own listening connection, its own cache.
    const otherFeed = new ChangeFeed(await createDatabaseSetup(ctx.config));
    await otherFeed.start();
    try {
      const otherKeys = new ApiKeyRepository(ctx.dataSource.getRepository(ApiKey), otherFeed);
      const other = new MerchantAuthService(otherKeys, otherFeed, ctx.clock);
      await ctx.caughtUp(otherFeed);
      const lookups = jest.spyOn(otherKeys, 'findActiveByKeyHash');
      await other.authenticate(issued.key);
      await other.authenticate(issued.key);
      expect(lookups).toHaveBeenCalledTimes(1);
      const heard = ctx.nextChange('api_keys', otherFeed);
      await merchants.revokeKey(merchant.id, issued.id);
      await heard;
      expect(await refusal(other.authenticate(issued.key))).toBe('INVALID_MERCHANT_KEY');
    } finally {
      await otherFeed.onApplicationShutdown();
    }
  });
});

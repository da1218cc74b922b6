import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { IdempotencyRecordRepository } from '../../src/idempotency/idempotency-record.repository';
import { FakeClock } from '../../src/testing/fake-clock';
import { MerchantFixture } from '../helpers/factories';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

describe(`idempotency records (${testDatabase()} database)`, () => {
  const clock = new FakeClock(new Date());
  let ctx: MediumContext;
  let shop: MerchantFixture;
  let idempotency: IdempotencyService;
  let records: IdempotencyRecordRepository;
  beforeAll(async () => {
    ctx = await newMediumContext({ clock });
    shop = await ctx.newMerchant();
    const moduleRef = await ctx.module([IdempotencyService, IdempotencyRecordRepository]);
    idempotency = moduleRef.get(IdempotencyService);
    records = moduleRef.get(IdempotencyRecordRepository);
  });
  afterAll(() => ctx.close());
  beforeEach(() => clock.set(new Date()));

  const claim = async (key: string) => {
    const outcome = await idempotency.begin(shop.merchant.id, key, 'hash', '/v1/payments/create');
    if (outcome.kind !== 'claimed') throw new Error(`expected a claim, got ${outcome.kind}`);
    return outcome.claim;
  };

  it('a retry after a release takes the record over with the same payment id and txid, fencing the first attempt off', async () => {
    const first = await claim('retry-1');
    await idempotency.release(first);
    const second = await claim('retry-1');
    expect(second).toEqual({ ...first, attempt: first.attempt + 1 });
    await idempotency.release(first); // fenced: the first attempt no longer holds it
    expect((await records.find(shop.merchant.id, 'retry-1'))?.record.state).toBe('in_progress');
  });

  it('a second request while the first holds the lock is told to wait', async () => {
    await claim('busy-1');
    await expect(idempotency.begin(shop.merchant.id, 'busy-1', 'hash', '/v1/payments/create')).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
  });

  it('the purge keeps records until the clock passes their retention, then deletes them', async () => {
    await claim('purge-1');
    expect(await idempotency.purgeExpired()).toBe(0);
    clock.advance((ctx.config.idempotencyTtlSeconds + 1) * 1000);
    expect(await idempotency.purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await records.find(shop.merchant.id, 'purge-1')).toBeNull();
  });
});

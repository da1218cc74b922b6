import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PreparedResponse } from '../../src/common/http/envelope';
import { IdempotencyRecord } from '../../src/idempotency/idempotency-record.entity';
import { IdempotencyRecordRepository } from '../../src/idempotency/idempotency-record.repository';
import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { CLAIM_WRITE_RETRY } from '../../src/idempotency/pending-claim-writes';
import { CuttableDatabase } from '../helpers/cuttable-database';
import { eventually } from '../helpers/eventually';
import { MerchantFixture } from '../helpers/factories';
import { ENTITIES, MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

/**
 * A database outage (docs/operations.md, Database outage): a request that fails because the database
 * is unreachable cannot write its claim's release. The release waits in the process and lands once
 * the database answers; until it has, a retry in the same process takes the claim over at once
 * (the record names this process as its holder, and no request of it holds the claim any more),
 * while other processes wait as for any claim in progress.
 *
 * "This process" is an IdempotencyService whose connections go through a link the test cuts
 * (CuttableDatabase); "another process" is one on the context's own connection.
 */
describe(`idempotency claims through a database outage (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let shop: MerchantFixture;
  let link: CuttableDatabase;
  let linked: DataSource;
  /** Another process on the same database, never cut off. */
  let other: IdempotencyService;
  let records: IdempotencyRecordRepository;
  beforeAll(async () => {
    ctx = await newMediumContext();
    shop = await ctx.newMerchant();
    link = new CuttableDatabase();
    linked = link.dataSource(ctx.setup, ENTITIES);
    await linked.initialize();
    const otherModule = await ctx.module([IdempotencyService, IdempotencyRecordRepository]);
    other = otherModule.get(IdempotencyService);
    records = otherModule.get(IdempotencyRecordRepository);
  });
  afterAll(async () => {
    link?.restore();
    await linked?.destroy();
    await ctx.close();
  });
  afterEach(() => link.restore());

  /** A process whose database link is `link`; its failed claim writes are retried after `firstRetryMs`, doubling. */
  const processOnLink = async (firstRetryMs: number) =>
    (
      await ctx.module([
        IdempotencyService,
        IdempotencyRecordRepository,
        { provide: getRepositoryToken(IdempotencyRecord), useValue: linked.getRepository(IdempotencyRecord) },
        { provide: CLAIM_WRITE_RETRY, useValue: { firstMs: firstRetryMs, maxMs: firstRetryMs * 4 } },
      ])
    ).get(IdempotencyService);

  const claimOn = async (service: IdempotencyService, key: string) => {
    const outcome = await service.begin(shop.merchant.id, key, 'hash', '/v1/payments/create');
    if (outcome.kind !== 'claimed') throw new Error(`expected a claim, got ${outcome.kind}`);
    return outcome.claim;
  };
  const stateOf = async (key: string) => (await records.find(shop.merchant.id, key))?.record.state ?? 'absent';

  it('a release that fails while the database is unreachable is retried until it lands, and any process may then retry the key', async () => {
    const gateway = await processOnLink(20);
    const claim = await claimOn(gateway, 'queued-release');
    link.cut();
    await gateway.release(claim, 'sandbox'); // kept to be written, not thrown at a request already failing
    expect(await stateOf('queued-release')).toBe('in_progress');

    link.restore();
    await eventually(
      () => stateOf('queued-release'),
      (state) => state === 'retryable',
    );
    const retry = await claimOn(other, 'queued-release');
    expect(retry).toEqual({ ...claim, attempt: claim.attempt + 1 });
  });

  it('a retry in the same process takes over at once a claim whose release has not landed yet; other processes wait for it', async () => {
    const gateway = await processOnLink(3_600_000); // the queued release stays queued for this test
    const claim = await claimOn(gateway, 'take-over');
    link.cut();
    await gateway.release(claim);
    link.restore();
    expect(await stateOf('take-over')).toBe('in_progress');

    await expect(other.begin(shop.merchant.id, 'take-over', 'hash', '/v1/payments/create')).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    // Two retries at once in this process: one takes the claim over (same payment id and txid), the other waits.
    const outcomes = await Promise.allSettled([claimOn(gateway, 'take-over'), claimOn(gateway, 'take-over')]);
    const taken = outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value);
    expect(taken).toEqual([{ ...claim, attempt: claim.attempt + 1 }]);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'IDEMPOTENCY_IN_PROGRESS' } });
    // The new holder is fenced from the old one: the first attempt can no longer complete the record.
    await expect(gateway.complete(claim, new PreparedResponse(201, '{"first":true}', {}))).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    expect(await stateOf('take-over')).toBe('in_progress');
  });

  it('a claim a request of this process still holds is not taken over by another request of the same process', async () => {
    const gateway = await processOnLink(20);
    await claimOn(gateway, 'still-held');
    await expect(gateway.begin(shop.merchant.id, 'still-held', 'hash', '/v1/payments/create')).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
  });

  it('a completion that fails while the database is unreachable is written once it answers, and the key replays it', async () => {
    const gateway = await processOnLink(20);
    const claim = await claimOn(gateway, 'queued-complete');
    link.cut();
    await expect(gateway.complete(claim, new PreparedResponse(201, '{"done":true}', {}))).rejects.toBeDefined();
    link.restore();
    await eventually(
      () => stateOf('queued-complete'),
      (state) => state === 'completed',
    );
    const replay = await other.begin(shop.merchant.id, 'queued-complete', 'hash', '/v1/payments/create');
    expect(replay).toMatchObject({ kind: 'replay', response: { status: 201, body: '{"done":true}' } });
  });

  it('an operation run under a key that fails because the database is unreachable leaves the key free for a retry in this process at once', async () => {
    const gateway = await processOnLink(3_600_000); // the queued release stays queued for this test
    const call = { merchantId: shop.merchant.id, key: 'run-outage', fingerprint: 'hash', path: '/v1/payments/create' };
    const failed = gateway.run(call, async () => {
      link.cut();
      await linked.query('SELECT 1');
      return { complete: new PreparedResponse(201, '{"never":true}', {}) };
    });
    await expect(failed).rejects.toBeDefined();
    link.restore();
    expect(await stateOf('run-outage')).toBe('in_progress');

    await expect(other.begin(shop.merchant.id, 'run-outage', 'hash', '/v1/payments/create')).rejects.toMatchObject({ code: 'IDEMPOTENCY_IN_PROGRESS' });
    const retried = await gateway.run(call, async (claim) => ({ complete: new PreparedResponse(201, JSON.stringify({ attempt: claim.attempt }), {}) }));
    expect(retried.body).toBe('{"attempt":2}');
  });

  it('an abandoned claim whose delete fails while the database is unreachable is deleted once it answers', async () => {
    const gateway = await processOnLink(20);
    const claim = await claimOn(gateway, 'queued-abandon');
    link.cut();
    await gateway.abandon(claim);
    link.restore();
    await eventually(
      () => stateOf('queued-abandon'),
      (state) => state === 'absent',
    );
  });
});

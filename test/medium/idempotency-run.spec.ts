import { AppError } from '../../src/common/errors/app-error';
import { nameProvider } from '../../src/common/errors/answer-provider';
import { ErrorCode } from '../../src/common/errors/error-codes';
import { PreparedResponse } from '../../src/common/http/envelope';
import { IdempotencyRecordRepository } from '../../src/idempotency/idempotency-record.repository';
import { type IdempotentCall, IdempotencyService } from '../../src/idempotency/idempotency.service';
import { MerchantFixture } from '../helpers/factories';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

/**
 * IdempotencyService.run, the one sequence every idempotent route follows (docs/api.md,
 * Idempotency): the key looked up first, the operation run under its claim, its answer stored; a
 * refusal frees the key, any other failure leaves it retryable.
 */
describe(`an operation run under an Idempotency-Key (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let shop: MerchantFixture;
  let idempotency: IdempotencyService;
  /** Another process on the same database. */
  let other: IdempotencyService;
  beforeAll(async () => {
    ctx = await newMediumContext();
    shop = await ctx.newMerchant();
    idempotency = (await ctx.module([IdempotencyService, IdempotencyRecordRepository])).get(IdempotencyService);
    other = (await ctx.module([IdempotencyService, IdempotencyRecordRepository])).get(IdempotencyService);
  });
  afterAll(() => ctx.close());

  const call = (key: string): IdempotentCall => ({ merchantId: shop.merchant.id, key, fingerprint: 'hash', path: '/v1/things' });
  const answer = (body: object) => new PreparedResponse(201, JSON.stringify(body), { 'content-type': 'application/json; charset=utf-8' });
  /** The record as stored, with the provider a release charged (not on the entity: only the dashboard's statistics read it). */
  const found = async (key: string) => {
    const rows: { state: string; provider: string | null; responseBody: string | null }[] = await ctx.dataSource.query(
      `SELECT state, provider, response_body AS "responseBody" FROM idempotency_records WHERE merchant_id = $1 AND key = $2`,
      [shop.merchant.id, key],
    );
    return rows[0] ?? null;
  };

  it('runs the operation once with its claim and stores its answer, which the same key then replays without running it', async () => {
    const claims: unknown[] = [];
    const operation = async (claim: unknown) => {
      claims.push(claim);
      return { complete: answer({ made: claims.length }) };
    };
    const first = await idempotency.run(call('once'), operation);
    expect(first).toMatchObject({ status: 201, body: '{"made":1}' });
    expect(claims).toEqual([expect.objectContaining({ merchantId: shop.merchant.id, key: 'once', attempt: 1 })]);

    let replays = 0;
    const again = await other.run(call('once'), operation, { onReplay: () => replays++ });
    expect(again).toMatchObject({ status: 201, body: '{"made":1}', headers: { 'idempotent-replayed': 'true' } });
    expect(claims).toHaveLength(1);
    expect(replays).toBe(1);
  });

  it('a key used for another request is refused before the operation runs', async () => {
    await idempotency.run(call('reused'), async () => ({ complete: answer({ ok: true }) }));
    let ran = false;
    const other = idempotency.run({ ...call('reused'), fingerprint: 'another body' }, async () => {
      ran = true;
      return { complete: answer({ ok: false }) };
    });
    await expect(other).rejects.toMatchObject({ code: ErrorCode.IDEMPOTENCY_KEY_REUSED });
    expect(ran).toBe(false);
  });

  it('a refusal (4xx) frees the key, nothing kept; with refusal "release" it leaves the key retryable instead', async () => {
    const refuse = async (): Promise<never> => {
      throw new AppError(ErrorCode.PAYMENT_STATE_CONFLICT);
    };
    await expect(idempotency.run(call('refused'), refuse, { provider: 'sandbox' })).rejects.toMatchObject({ code: ErrorCode.PAYMENT_STATE_CONFLICT });
    expect(await found('refused')).toBeNull();

    await expect(idempotency.run(call('refused-kept'), refuse, { provider: 'sandbox', refusal: 'release' })).rejects.toMatchObject({
      code: ErrorCode.PAYMENT_STATE_CONFLICT,
    });
    expect(await found('refused-kept')).toMatchObject({ state: 'retryable', provider: 'sandbox' });
  });

  it('any other failure leaves the key retryable, charged to the provider the failure names, else to the one given; the retry runs with the same ids', async () => {
    let first: { paymentId: string; txid: string; attempt: number } | undefined;
    const failing = idempotency.run(
      call('failed'),
      async (claim) => {
        first = claim;
        throw new AppError(ErrorCode.PAYMENT_CREATE_FAILED);
      },
      { provider: 'sandbox' },
    );
    await expect(failing).rejects.toMatchObject({ code: ErrorCode.PAYMENT_CREATE_FAILED });
    expect(await found('failed')).toMatchObject({ state: 'retryable', provider: 'sandbox' });

    await expect(
      idempotency.run(
        call('failed'),
        async () => {
          throw nameProvider(new Error('a fault at the second account'), 'efi');
        },
        { provider: 'sandbox' },
      ),
    ).rejects.toThrow('a fault at the second account');
    expect(await found('failed')).toMatchObject({ state: 'retryable', provider: 'efi' });

    const retried = await idempotency.run(call('failed'), async (claim) => ({ complete: answer({ paymentId: claim.paymentId, txid: claim.txid, attempt: claim.attempt }) }));
    expect(JSON.parse(String(retried.body))).toEqual({ paymentId: first!.paymentId, txid: first!.txid, attempt: 3 });
  });

  it('an operation that completed the record itself is answered as it returned, and not completed again', async () => {
    const response = await idempotency.run(call('completed-by-operation'), async (claim) => {
      await idempotency.complete(claim, answer({ stored: 'by the operation' }));
      return { completed: answer({ answered: 'by the operation' }) };
    });
    expect(response.body).toBe('{"answered":"by the operation"}');
    expect(await found('completed-by-operation')).toMatchObject({ state: 'completed', responseBody: '{"stored":"by the operation"}' });
  });

  it('an operation fenced off meanwhile answers what the request that took its key over stored', async () => {
    const response = await idempotency.run(call('fenced'), async () => {
      // The lock lapses (this request stalled), another process takes the key over and completes it.
      await ctx.dataSource.query(`UPDATE idempotency_records SET locked_until = now() - interval '1 second' WHERE merchant_id = $1 AND key = $2`, [shop.merchant.id, 'fenced']);
      await other.run(call('fenced'), async () => ({ complete: answer({ winner: 'the other process' }) }));
      return { complete: answer({ winner: 'this request' }) };
    });
    expect(response).toMatchObject({ status: 201, body: '{"winner":"the other process"}', headers: { 'idempotent-replayed': 'true' } });
  });
});

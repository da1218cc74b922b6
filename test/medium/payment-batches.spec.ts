import { newId } from '../../src/common/ids';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { chunkOf } from '../../src/payment-batches/batch-plan';
import { PaymentBatch, PaymentBatchItem } from '../../src/payment-batches/payment-batch.entity';
import { type ClaimedChunk, PaymentBatchItemRepository } from '../../src/payment-batches/payment-batch-item.repository';
import { PaymentBatchProcessor } from '../../src/payment-batches/payment-batch.processor';
import { PaymentBatchRepository } from '../../src/payment-batches/payment-batch.repository';
import { PaymentRepository } from '../../src/payments/payment.repository';
import { PaymentsService } from '../../src/payments/payments.service';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MediumContext, newMediumContext } from '../helpers/medium';

/**
 * A batch's work queue and its completion against the database (docs/api.md, Payment batches):
 * chunks claimed under a lease by several claimers at once, each item taken by one of them; every
 * write fenced by the lease; the batch completed once, with its `payment_batch.completed` queued in
 * the same transaction.
 */
describe('payment batches: claims, leases and completion', () => {
  let ctx: MediumContext;
  let batches: PaymentBatchRepository;
  let items: PaymentBatchItemRepository;
  let processor: PaymentBatchProcessor;
  beforeAll(async () => {
    ctx = await newMediumContext();
    const moduleRef = await ctx.module([
      PaymentBatchRepository,
      PaymentBatchItemRepository,
      PaymentRepository,
      PaymentBatchProcessor,
      // Completion calls neither: it reads and writes the batch's own rows.
      { provide: AccountResolver, useValue: {} },
      { provide: PaymentsService, useValue: {} },
    ]);
    batches = moduleRef.get(PaymentBatchRepository);
    items = moduleRef.get(PaymentBatchItemRepository);
    processor = moduleRef.get(PaymentBatchProcessor);
  });
  beforeEach(async () => {
    await ctx.dataSource.query(`DELETE FROM webhook_deliveries WHERE batch_id IS NOT NULL`);
    await ctx.dataSource.query(`DELETE FROM payment_batch_items`);
    await ctx.dataSource.query(`DELETE FROM payment_batches`);
  });
  afterAll(() => ctx.close());

  /** A batch of `count` items in chunks of `chunkSize`, as the API stores one. */
  async function newBatch(count: number, chunkSize: number, webhookUrl: string | null = 'http://127.0.0.1:9/hook'): Promise<PaymentBatch> {
    const shop = await ctx.newMerchant({ webhookUrl });
    const now = new Date();
    const batch = Object.assign(new PaymentBatch(), {
      id: `bat_${newId('pay').slice(4)}`,
      merchantId: shop.merchant.id,
      description: 'Mensalidades',
      status: 'processing' as const,
      provider: 'sandbox',
      itemCount: count,
      chunkSize,
      requestId: '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11',
      eventId: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    });
    const due = { date: addDays(brasiliaDate(now), 5), daysAfterDue: 30, fine: null, interest: null, discount: null, abatement: null };
    const rows = Array.from({ length: count }, (_, index) =>
      Object.assign(new PaymentBatchItem(), {
        batchId: batch.id,
        index,
        merchantId: shop.merchant.id,
        externalId: `invoice-${index}`,
        chunk: chunkOf(index, chunkSize),
        request: { amount: 10, externalId: `invoice-${index}` },
        amountCents: 1000,
        due,
        status: 'pending' as const,
      }),
    );
    expect(await batches.insertWithItems(batch, rows)).toBe(true);
    // The same id again (a retried request) stores nothing more.
    expect(await batches.insertWithItems(batch, rows)).toBe(false);
    return batch;
  }
  const claim = (leaseMs = 60_000) => items.claimChunkSkipLocked(new Date(), leaseMs);
  const keysOf = (claimed: ClaimedChunk | null) => claimed?.items.map((item) => `${item.batchId}#${item.index}`) ?? [];
  const statusOf = async (id: string) => (await ctx.dataSource.query(`SELECT status, completed_at, event_id FROM payment_batches WHERE id = $1`, [id]))[0];
  const deliveriesOf = (id: string) => ctx.dataSource.query(`SELECT event_id, event_type, request_id, body, status FROM webhook_deliveries WHERE batch_id = $1`, [id]);

  it('gives each item to one claimer, a whole chunk at a time, however many claim at once', async () => {
    const big = await newBatch(7, 3);
    const small = await newBatch(2, 3);
    const claimed: ClaimedChunk[] = [];
    for (;;) {
      // Four claimers at once, as four processes would (truly concurrent on PostgreSQL's pool).
      const round = (await Promise.all([claim(), claim(), claim(), claim()])).filter((c): c is ClaimedChunk => c !== null);
      if (round.length === 0) break;
      claimed.push(...round);
    }
    const taken = claimed.flatMap(keysOf);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort()).toEqual([...[0, 1, 2, 3, 4, 5, 6].map((i) => `${big.id}#${i}`), `${small.id}#0`, `${small.id}#1`].sort());
    // A chunk is claimed whole: the items of one claim are exactly one chunk of one batch.
    for (const chunk of claimed) {
      expect(new Set(chunk.items.map((item) => `${item.batchId}/${item.chunk}`)).size).toBe(1);
      expect(chunk.merchant.id).toBe(chunk.items[0]!.merchantId);
    }
    expect(claimed.map((c) => c.items.length).sort()).toEqual([1, 2, 3, 3]);
  });

  it('keeps a claimed chunk away from others until it is let go or its lease lapses, and fences off a stale holder', async () => {
    const batch = await newBatch(2, 2);
    const first = (await claim())!;
    expect(keysOf(first)).toEqual([`${batch.id}#0`, `${batch.id}#1`]);
    expect(await claim()).toBeNull();

    // Let go for later: not due yet, so nobody takes it.
    const later = new Date(Date.now() + 3_600_000);
    await items.releaseIfLeaseHeld(batch.id, [0, 1], first.lease, later, true, new Date());
    expect(await claim()).toBeNull();
    expect(await items.nextDueAt()).toEqual(later);
    await ctx.dataSource.query(`UPDATE payment_batch_items SET next_attempt_at = now() - interval '1 second' WHERE batch_id = $1`, [batch.id]);

    // A holder that stalls past its lease: the chunk is claimed again, and the stale holder's writes change nothing.
    const stale = (await claim())!;
    expect(stale.items.map((item) => item.attempts)).toEqual([1, 1]);
    await ctx.dataSource.query(`UPDATE payment_batch_items SET locked_until = now() - interval '1 second' WHERE batch_id = $1`, [batch.id]);
    const current = (await claim())!;
    expect(keysOf(current)).toEqual(keysOf(stale));
    expect(await items.settleIfLeaseHeld(batch.id, 0, stale.lease, { status: 'created', paymentId: 'pay_stale' }, new Date())).toBe(false);
    expect(await items.settleIfLeaseHeld(batch.id, 0, current.lease, { status: 'created', paymentId: 'pay_current' }, new Date())).toBe(true);
    expect(await items.settleIfLeaseHeld(batch.id, 0, current.lease, { status: 'failed', code: 'X', message: 'again' }, new Date())).toBe(false);
    expect((await items.listForBatch(batch.id)).map((item) => [item.status, item.paymentId])).toEqual([
      ['created', 'pay_current'],
      ['pending', null],
    ]);
  });

  it('completes a batch once its last item settles, queuing payment_batch.completed in the same transaction, once', async () => {
    const batch = await newBatch(3, 3);
    const claimed = (await claim())!;
    await items.settleIfLeaseHeld(batch.id, 0, claimed.lease, { status: 'created', paymentId: 'pay_A' }, new Date());
    await items.settleIfLeaseHeld(batch.id, 1, claimed.lease, { status: 'failed', code: 'PAYMENT_CREATE_FAILED', message: 'The PSP refused the charge' }, new Date());
    expect(await processor.completeIfSettled(batch.id)).toBe(false);
    expect(await statusOf(batch.id)).toMatchObject({ status: 'processing', completed_at: null });
    expect(await deliveriesOf(batch.id)).toEqual([]);

    await items.settleIfLeaseHeld(batch.id, 2, claimed.lease, { status: 'created', paymentId: 'pay_C' }, new Date());
    // Two processes settling the last items both try: one completes it.
    expect((await Promise.all([processor.completeIfSettled(batch.id), processor.completeIfSettled(batch.id)])).sort()).toEqual([false, true]);
    const done = await statusOf(batch.id);
    expect(done).toMatchObject({ status: 'completed', completed_at: expect.any(Date), event_id: expect.stringMatching(/^evt_/) });
    const deliveries = await deliveriesOf(batch.id);
    expect(deliveries).toEqual([
      {
        event_id: done.event_id,
        event_type: 'payment_batch.completed',
        request_id: batch.requestId,
        status: 'pending',
        body: {
          event: 'payment_batch.completed',
          id: done.event_id,
          created_at: done.completed_at.toISOString(),
          data: {
            id: batch.id,
            description: 'Mensalidades',
            status: 'completed',
            counts: { created: 2, failed: 1, pending: 0 },
            createdAt: batch.createdAt.toISOString(),
            completedAt: done.completed_at.toISOString(),
          },
        },
      },
    ]);
    expect(await processor.completeIfSettled(batch.id)).toBe(false);
    expect(await deliveriesOf(batch.id)).toHaveLength(1);
    // Completed, it is claimed no more, and listed with the counts of its items.
    expect(await claim()).toBeNull();
    const [listed] = await batches.listPage({ merchantId: batch.merchantId, limit: 10 });
    expect(listed).toMatchObject({ id: batch.id, counts: { created: 2, failed: 1, pending: 0 }, batch: { status: 'completed' } });
  });

  it('completes without a delivery for a merchant with no webhook URL, and finds a batch whose completion was cut off', async () => {
    const batch = await newBatch(1, 1, null);
    const claimed = (await claim())!;
    await items.settleIfLeaseHeld(batch.id, 0, claimed.lease, { status: 'created', paymentId: 'pay_A' }, new Date());
    expect(await batches.listSettledButProcessing(10)).toEqual([batch.id]);
    expect(await processor.completeIfSettled(batch.id)).toBe(true);
    expect(await statusOf(batch.id)).toMatchObject({ status: 'completed' });
    expect(await deliveriesOf(batch.id)).toEqual([]);
    expect(await batches.listSettledButProcessing(10)).toEqual([]);
  });
});

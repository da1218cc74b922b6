import { TXID } from '../providers/charge-txid';
import {
  batchIdOfClaim,
  batchTxid,
  chunkOf,
  chunkSizeFor,
  countsOf,
  MAX_BATCH_ITEMS,
  pollDelayMs,
  pspBatchId,
  repeatedExternalIds,
  retryDelayMs,
  SINGLE_CHUNK_SIZE,
} from './batch-plan';
import { toBatchView, toItemView } from './payment-batch.view';
import type { PaymentBatch } from './payment-batch.entity';

describe('batch plan', () => {
  it('cuts a batch into chunks of the account’s batch size, or small claim units where it takes no batches', () => {
    expect(chunkSizeFor(1000)).toBe(1000);
    expect(chunkSizeFor(250)).toBe(250);
    expect(chunkSizeFor(5000)).toBe(MAX_BATCH_ITEMS);
    expect(chunkSizeFor(null)).toBe(SINGLE_CHUNK_SIZE);
    const chunks = (count: number, size: number) => Array.from({ length: count }, (_, index) => chunkOf(index, size));
    expect(chunks(5, 2)).toEqual([0, 0, 1, 1, 2]);
    // 1,000 items at a PSP taking 300 per batch: four batches, the last of 100.
    const sizes = chunks(1000, chunkSizeFor(300)).reduce<number[]>((acc, chunk) => ((acc[chunk] = (acc[chunk] ?? 0) + 1), acc), []);
    expect(sizes).toEqual([300, 300, 300, 100]);
  });

  it('derives the ids a chunk is asked under, the same on every retry and different for every chunk and item', () => {
    expect(pspBatchId('bat_A', 0)).toBe('bat_A.0');
    expect(pspBatchId('bat_A', 3)).not.toBe(pspBatchId('bat_A', 2));
    const txids = [batchTxid('bat_A', 0), batchTxid('bat_A', 1), batchTxid('bat_B', 0)];
    expect(new Set(txids).size).toBe(3);
    for (const txid of txids) expect(txid).toMatch(TXID);
    expect(batchTxid('bat_A', 1)).toBe(txids[1]);
    expect(batchIdOfClaim('pay_3kTMd9Q2xLr8VbN1cZp4Wf7A')).toBe('bat_3kTMd9Q2xLr8VbN1cZp4Wf7A');
  });

  it('waits longer after each failed try, and polls a PSP batch from a second to a minute', () => {
    expect([1, 2, 3, 4, 5, 9].map(retryDelayMs)).toEqual([5_000, 30_000, 120_000, 600_000, 1_800_000, 1_800_000]);
    expect([0, 1, 2, 5, 6, 20].map(pollDelayMs)).toEqual([1_000, 2_000, 4_000, 32_000, 60_000, 60_000]);
  });

  it('finds an externalId used twice, naming every later use', () => {
    expect(repeatedExternalIds(['a', 'b', 'a', 'c', 'a'])).toEqual([
      { index: 2, externalId: 'a' },
      { index: 4, externalId: 'a' },
    ]);
    expect(repeatedExternalIds(['a', 'b'])).toEqual([]);
  });

  it('counts items by status, and a view’s counts are always its items’', () => {
    const items = [
      { index: 0, externalId: 'a', status: 'created' as const, paymentId: 'pay_1', errorCode: null, errorMessage: null },
      { index: 1, externalId: 'b', status: 'failed' as const, paymentId: 'pay_2', errorCode: 'PAYMENT_CREATE_FAILED', errorMessage: 'refused' },
      { index: 2, externalId: 'c', status: 'pending' as const, paymentId: 'pay_3', errorCode: null, errorMessage: null },
    ];
    expect(countsOf(items)).toEqual({ created: 1, failed: 1, pending: 1 });
    const batch = { id: 'bat_A', description: 'd', status: 'processing', createdAt: new Date(0), completedAt: null } as PaymentBatch;
    expect(toBatchView(batch, items).counts).toEqual({ created: 1, failed: 1, pending: 1 });
    // A payment id reserved for an item not (yet) created is never shown.
    expect(items.map(toItemView)).toEqual([
      { index: 0, externalId: 'a', paymentId: 'pay_1', status: 'created' },
      { index: 1, externalId: 'b', status: 'failed', error: { code: 'PAYMENT_CREATE_FAILED', message: 'refused' } },
      { index: 2, externalId: 'c', status: 'pending' },
    ]);
  });
});

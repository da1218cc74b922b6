import { digest62, TXID_LENGTH } from '../providers/charge-txid';
import type { BatchItemStatus } from './payment-batch.entity';

/*
 * The pure rules of a batch's processing (docs/api.md, Payment batches): how items fall into
 * chunks, the ids a chunk is asked at a PSP under, how long a retry waits, and the counts.
 */

/** A batch holds 1 to 1,000 payments (docs/api.md, Payment batches). */
export const MAX_BATCH_ITEMS = 1_000;

/**
 * Items a worker claims at once where they are made one create at a time: small, so several
 * processes share a large batch and a lease covers a few PSP calls.
 */
export const SINGLE_CHUNK_SIZE = 16;

/** Failed tries of one item (a provider's 5xx, a fault) before it is failed for good. */
export const MAX_ATTEMPTS = 5;

/** Reads of a PSP batch still making its charges before the charges not reported are failed (about 20 minutes with pollDelayMs). */
export const MAX_POLLS = 30;

/** The chunk of the item at `index` when a batch is cut into chunks of `chunkSize`. */
export function chunkOf(index: number, chunkSize: number): number {
  return Math.floor(index / chunkSize);
}

/**
 * How many items a chunk holds: the account's `chargeBatches.maxCharges` when the first account that
 * takes due-date charges takes batches of them, else SINGLE_CHUNK_SIZE.
 */
export function chunkSizeFor(maxCharges: number | null): number {
  return maxCharges === null ? SINGLE_CHUNK_SIZE : Math.max(1, Math.min(maxCharges, MAX_BATCH_ITEMS));
}

/** The PSP batch a chunk is asked as: derived, so a retry after a crash asks for the same batch. */
export function pspBatchId(batchId: string, chunk: number): string {
  return `${batchId}.${chunk}`;
}

/** The txid of a batch's charge at a PSP that takes batches: derived from the batch and the index, 35 of [A-Za-z0-9]. */
export function batchTxid(batchId: string, index: number): string {
  return digest62('pix-gateway/batch-txid/v1', [batchId, String(index)], TXID_LENGTH);
}

/** The batch id a create's idempotency claim reserves: the claim's reserved payment id, renamed, so a retry of the key finds the batch it made. */
export function batchIdOfClaim(reservedPaymentId: string): string {
  return `bat_${reservedPaymentId.slice('pay_'.length)}`;
}

/** The Idempotency-Key of an item's own create (one create per item): derived, so a crash mid-way never makes two charges. */
export function itemIdempotencyKey(batchId: string, index: number): string {
  return `payment-batch:${batchId}:${index}`;
}

/** The path an item's own create is recorded under (never served: the key is the batch's, not the merchant's). */
export function itemCreatePath(batchId: string, index: number): string {
  return `/v1/payment-batches/${batchId}/payments/${index}`;
}

/** How long a failed try waits before the next: 5 s, 30 s, 2 min, 10 min, then 30 min. */
export function retryDelayMs(attempts: number): number {
  const schedule = [5_000, 30_000, 120_000, 600_000, 1_800_000];
  return schedule[Math.min(Math.max(attempts, 1), schedule.length) - 1]!;
}

/** How long to wait before reading a PSP batch again: 1 s, doubling, at most a minute. */
export function pollDelayMs(polls: number): number {
  return Math.min(60_000, 1_000 * 2 ** Math.min(Math.max(polls, 0), 6));
}

export interface BatchCounts {
  created: number;
  failed: number;
  pending: number;
}

/** The counts of a batch: always derived from its items' statuses, never kept. */
export function countsOf(items: readonly { status: BatchItemStatus }[]): BatchCounts {
  const counts: BatchCounts = { created: 0, failed: 0, pending: 0 };
  for (const item of items) counts[item.status] += 1;
  return counts;
}

/** The externalIds that appear more than once, each with every index after its first. */
export function repeatedExternalIds(externalIds: readonly string[]): { index: number; externalId: string }[] {
  const seen = new Set<string>();
  const repeated: { index: number; externalId: string }[] = [];
  externalIds.forEach((externalId, index) => {
    if (seen.has(externalId)) repeated.push({ index, externalId });
    seen.add(externalId);
  });
  return repeated;
}

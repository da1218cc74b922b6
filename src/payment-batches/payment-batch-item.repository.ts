import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hydrate, sqlRows } from '../database/sql';
import { PaymentBatchItem } from './payment-batch.entity';

/** A chunk of a batch's pending items this process holds until `lease`, with what is needed to make them. */
export interface ClaimedChunk {
  batchId: string;
  chunk: number;
  description: string;
  merchant: { id: string; name: string; provider: string | null };
  /** The lease, also the fencing token of every write about these items. */
  lease: Date;
  /** In index order. */
  items: PaymentBatchItem[];
}

/** Where a chunk is asked as one PSP batch: written before the PSP is called, so every retry asks the same PSP for the same batch. */
export interface BatchBinding {
  provider: string;
  accountId: string | null;
  pspBatchId: string;
  /** Per item (by index): its txid and the payment id it will be written under. */
  charges: { index: number; txid: string; paymentId: string }[];
}

/** What became of an item. */
export type ItemOutcome = { status: 'created'; paymentId: string } | { status: 'failed'; code: string; message: string };

/** Every query of the `payment_batch_items` table. */
@Injectable()
export class PaymentBatchItemRepository {
  constructor(@InjectRepository(PaymentBatchItem) private readonly items: Repository<PaymentBatchItem>) {}

  /** A batch's items in the request's order, as the API shows them. */
  listForBatch(batchId: string): Promise<Pick<PaymentBatchItem, 'index' | 'externalId' | 'status' | 'paymentId' | 'errorCode' | 'errorMessage'>[]> {
    return this.items.find({
      select: { index: true, externalId: true, status: true, paymentId: true, errorCode: true, errorMessage: true },
      where: { batchId },
      order: { index: 'ASC' },
    });
  }

  /**
   * Claims the next chunk whose pending items are due at `now` (the gateway's Clock) and free of any
   * lease (the database's now()), for `leaseMs`. The oldest batch with such a chunk is locked first
   * (`FOR UPDATE SKIP LOCKED`), so two processes never claim from one batch at the same moment:
   * one skips to another batch, and a claim that started before another's commit finds the rows
   * leased when it re-checks them (the UPDATE's condition), and takes none of them. The lease keeps
   * the chunk this process's until it records or releases each item, or until it lapses because the
   * process died; then any process claims it again. No transaction is held while the items are made.
   */
  async claimChunkSkipLocked(now: Date, leaseMs: number): Promise<ClaimedChunk | null> {
    const claimable = `i.status = 'pending' AND i.next_attempt_at <= $1 AND (i.locked_until IS NULL OR i.locked_until < now())`;
    const rows = await sqlRows<Record<string, unknown>>(
      this.items.manager,
      `WITH batch AS (
         SELECT b.id FROM payment_batches b
          WHERE b.status = 'processing'
            AND EXISTS (SELECT 1 FROM payment_batch_items i WHERE i.batch_id = b.id AND ${claimable})
          ORDER BY b.created_at, b.id
          LIMIT 1
            FOR UPDATE OF b SKIP LOCKED
       ), target AS (
         SELECT i.batch_id, i.chunk FROM payment_batch_items i JOIN batch ON batch.id = i.batch_id
          WHERE ${claimable}
          ORDER BY i.chunk
          LIMIT 1
       )
       UPDATE payment_batch_items i
          SET locked_until = date_trunc('milliseconds', now()) + make_interval(secs => $2::double precision / 1000)
         FROM target t, payment_batches b, merchants m
        WHERE i.batch_id = t.batch_id AND i.chunk = t.chunk AND ${claimable}
          AND b.id = i.batch_id AND m.id = i.merchant_id
       RETURNING i.*, b.description AS b_description, m.name AS m_name, m.provider AS m_provider`,
      [now, leaseMs],
    );
    if (rows.length === 0) return null;
    const items = rows.map((row) => hydrate(this.items.manager, PaymentBatchItem, row)).sort((a, b) => a.index - b.index);
    const first = rows[0]!;
    return {
      batchId: items[0]!.batchId,
      chunk: items[0]!.chunk,
      description: first.b_description as string,
      merchant: { id: items[0]!.merchantId, name: first.m_name as string, provider: (first.m_provider as string | null) ?? null },
      lease: items[0]!.lockedUntil!,
      items,
    };
  }

  /** Binds the leased items to one PSP batch at one account (mode `batch`), before it is asked for. The items whose lease still held. */
  async bindIfLeaseHeld(batchId: string, lease: Date, binding: BatchBinding, at: Date): Promise<number> {
    const rows = await sqlRows<{ item_index: number }>(
      this.items.manager,
      `UPDATE payment_batch_items i
          SET mode = 'batch', provider = $3, provider_account_id = $4, psp_batch_id = $5, txid = c.txid, payment_id = c.payment_id, updated_at = $9
         FROM unnest($6::int[], $7::text[], $8::text[]) AS c(item_index, txid, payment_id)
        WHERE i.batch_id = $1 AND i.item_index = c.item_index AND i.locked_until = $2 AND i.status = 'pending'
       RETURNING i.item_index`,
      [
        batchId,
        lease,
        binding.provider,
        binding.accountId,
        binding.pspBatchId,
        binding.charges.map((c) => c.index),
        binding.charges.map((c) => c.txid),
        binding.charges.map((c) => c.paymentId),
        at,
      ],
    );
    return rows.length;
  }

  /** The leased items are made one create at a time from now on (mode `single`). */
  async makeSingleIfLeaseHeld(batchId: string, indexes: number[], lease: Date, at: Date): Promise<void> {
    await sqlRows(
      this.items.manager,
      `UPDATE payment_batch_items SET mode = 'single', updated_at = $4
        WHERE batch_id = $1 AND item_index = ANY($2::int[]) AND locked_until = $3 AND status = 'pending'`,
      [batchId, indexes, lease, at],
    );
  }

  /** The PSP accepted the batch request: the items are read back from `nextAttemptAt`, and their lease ends. */
  async markAskedIfLeaseHeld(batchId: string, indexes: number[], lease: Date, at: Date, nextAttemptAt: Date): Promise<void> {
    await sqlRows(
      this.items.manager,
      `UPDATE payment_batch_items SET asked_at = $4, attempts = 0, next_attempt_at = $5, locked_until = NULL, updated_at = $4
        WHERE batch_id = $1 AND item_index = ANY($2::int[]) AND locked_until = $3 AND status = 'pending'`,
      [batchId, indexes, lease, at, nextAttemptAt],
    );
  }

  /** Settles an item (its lease still held, and still pending); false when another process owns it now, or it was settled before. */
  async settleIfLeaseHeld(batchId: string, index: number, lease: Date, outcome: ItemOutcome, at: Date): Promise<boolean> {
    const rows = await sqlRows<{ item_index: number }>(
      this.items.manager,
      `UPDATE payment_batch_items
          SET status = $4, payment_id = COALESCE($5, payment_id), error_code = $6, error_message = $7, locked_until = NULL, updated_at = $8
        WHERE batch_id = $1 AND item_index = $2 AND locked_until = $3 AND status = 'pending'
       RETURNING item_index`,
      [
        batchId,
        index,
        lease,
        outcome.status,
        outcome.status === 'created' ? outcome.paymentId : null,
        outcome.status === 'failed' ? outcome.code : null,
        outcome.status === 'failed' ? outcome.message : null,
        at,
      ],
    );
    return rows.length > 0;
  }

  /** Lets leased items go, to be tried again at `nextAttemptAt`, counting a failed try when `failedTry`. */
  async releaseIfLeaseHeld(batchId: string, indexes: number[], lease: Date, nextAttemptAt: Date, failedTry: boolean, at: Date): Promise<void> {
    if (indexes.length === 0) return;
    await sqlRows(
      this.items.manager,
      `UPDATE payment_batch_items
          SET locked_until = NULL, next_attempt_at = $4, attempts = attempts + $5, updated_at = $6
        WHERE batch_id = $1 AND item_index = ANY($2::int[]) AND locked_until = $3 AND status = 'pending'`,
      [batchId, indexes, lease, nextAttemptAt, failedTry ? 1 : 0, at],
    );
  }

  /** When the next pending item falls due, or its lease lapses if later (a hint for waking up, not a claim), or null when none is pending. */
  async nextDueAt(): Promise<Date | null> {
    const rows = await sqlRows<{ at: Date | null }>(
      this.items.manager,
      `SELECT min(GREATEST(next_attempt_at, COALESCE(locked_until, next_attempt_at))) AS at FROM payment_batch_items WHERE status = 'pending'`,
    );
    return rows[0]?.at ? new Date(rows[0].at) : null;
  }
}

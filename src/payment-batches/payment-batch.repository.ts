import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { afterCursorSql, type CursorPosition, microsecondsSql } from '../common/http/cursor';
import { hydrate, sqlRows } from '../database/sql';
import type { BatchCounts } from './batch-plan';
import { type BatchStatus, PaymentBatch, PaymentBatchItem } from './payment-batch.entity';

export interface BatchListFilter {
  merchantId?: string;
  status?: BatchStatus;
  after?: CursorPosition;
  limit: number;
}

/** A batch as a list shows it: with its counts, read from its items, and its exact position for the cursor. */
export interface ListedBatch {
  batch: PaymentBatch;
  counts: BatchCounts;
  id: string;
  created_us: string;
}

/** The merchant's forward of `payment_batch.completed`, queued with the completion (the transactional outbox). */
export interface BatchOutboxDelivery {
  id: string;
  eventType: string;
  /** The whole body, `created_at` included. */
  body: object;
  dueAt: Date;
}

/** A batch locked for its completion, with where its merchant takes events. */
export interface LockedBatch {
  batch: PaymentBatch;
  webhookUrl: string | null;
}

const COUNTS = `
  LEFT JOIN LATERAL (
    SELECT count(*) FILTER (WHERE i.status = 'created')::int AS c_created,
           count(*) FILTER (WHERE i.status = 'failed')::int AS c_failed,
           count(*) FILTER (WHERE i.status = 'pending')::int AS c_pending
      FROM payment_batch_items i WHERE i.batch_id = b.id) c ON true`;

/** Every query of the `payment_batches` table (its items' own are in PaymentBatchItemRepository). */
@Injectable()
export class PaymentBatchRepository {
  constructor(@InjectRepository(PaymentBatch) private readonly batches: Repository<PaymentBatch>) {}

  /**
   * Stores the batch and its items in one statement, unless a batch of that id exists (a retry of
   * the request that made it: its items are already there). False when it existed.
   */
  async insertWithItems(batch: PaymentBatch, items: PaymentBatchItem[]): Promise<boolean> {
    const column = <T>(pick: (item: PaymentBatchItem) => T): T[] => items.map(pick);
    const rows = await sqlRows<{ id: string }>(
      this.batches.manager,
      `WITH batch AS (
         INSERT INTO payment_batches (id, merchant_id, description, status, provider, item_count, chunk_size, request_id, created_at, updated_at)
         VALUES ($1, $2, $3, 'processing', $4, $5, $6, $7, $8, $8)
         ON CONFLICT (id) DO NOTHING
         RETURNING id
       ), items AS (
         INSERT INTO payment_batch_items (batch_id, item_index, merchant_id, external_id, chunk, request, amount_cents, due, status, next_attempt_at, created_at, updated_at)
         SELECT batch.id, i.item_index, $2, i.external_id, i.chunk, i.request, i.amount_cents, i.due, 'pending', $8, $8, $8
           FROM batch, unnest($9::int[], $10::text[], $11::int[], $12::jsonb[], $13::int8[], $14::jsonb[]) AS i(item_index, external_id, chunk, request, amount_cents, due)
       )
       SELECT id FROM batch`,
      [
        batch.id,
        batch.merchantId,
        batch.description,
        batch.provider,
        batch.itemCount,
        batch.chunkSize,
        batch.requestId,
        batch.createdAt,
        column((item) => item.index),
        column((item) => item.externalId),
        column((item) => item.chunk),
        column((item) => JSON.stringify(item.request)),
        column((item) => item.amountCents),
        column((item) => JSON.stringify(item.due)),
      ],
    );
    return rows.length > 0;
  }

  /** The merchant's own batch: every read on behalf of a merchant is scoped by its id. */
  findForMerchant(merchantId: string, id: string): Promise<PaymentBatch | null> {
    return this.batches.findOneBy({ id, merchantId });
  }

  findById(id: string): Promise<PaymentBatch | null> {
    return this.batches.findOneBy({ id });
  }

  /** Batches newest first (a merchant's, or every merchant's): `limit + 1` rows from the cursor on, each with its counts. */
  async listPage(filter: BatchListFilter): Promise<ListedBatch[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.merchantId) where.push(`b.merchant_id = $${params.push(filter.merchantId)}`);
    if (filter.status) where.push(`b.status = $${params.push(filter.status)}`);
    if (filter.after) where.push(afterCursorSql('b.created_at', 'b.id', `$${params.push(filter.after.createdUs)}`, `$${params.push(filter.after.id)}`));
    const rows = await sqlRows<Record<string, unknown>>(
      this.batches.manager,
      `SELECT b.*, ${microsecondsSql('b.created_at')} AS created_us, c.c_created, c.c_failed, c.c_pending
         FROM payment_batches b ${COUNTS}
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY b.created_at DESC, b.id DESC
        LIMIT $${params.push(filter.limit + 1)}`,
      params,
    );
    return rows.map((row) => {
      const batch = hydrate(this.batches.manager, PaymentBatch, row);
      return { batch, counts: countsOfRow(row), id: batch.id, created_us: row.created_us as string };
    });
  }

  /** Locks (`FOR UPDATE`) a batch still processing, inside the caller's transaction, with its merchant's webhook URL now. */
  async lockProcessing(tx: EntityManager, id: string): Promise<LockedBatch | null> {
    const rows = await sqlRows<Record<string, unknown>>(
      tx,
      `SELECT b.*, m.webhook_url AS m_webhook_url
         FROM payment_batches b JOIN merchants m ON m.id = b.merchant_id
        WHERE b.id = $1 AND b.status = 'processing'
          FOR UPDATE OF b`,
      [id],
    );
    const row = rows[0];
    return row ? { batch: hydrate(tx, PaymentBatch, row), webhookUrl: row.m_webhook_url as string | null } : null;
  }

  /**
   * Marks the batch completed and, in the same statement, queues its merchant's delivery (the
   * transactional outbox), inside the caller's transaction, which holds the batch locked.
   */
  async completeWithOutbox(tx: EntityManager, id: string, at: Date, eventId: string, delivery: BatchOutboxDelivery | null): Promise<void> {
    await sqlRows(
      tx,
      `WITH done AS (
         UPDATE payment_batches SET status = 'completed', completed_at = $2, updated_at = $2, event_id = $3
          WHERE id = $1 AND status = 'processing'
          RETURNING id, merchant_id, request_id
       )
       INSERT INTO webhook_deliveries (id, event_id, merchant_id, batch_id, event_type, request_id, body, status, next_attempt_at, created_at, updated_at)
       SELECT $4::text, $3, d.merchant_id, d.id, $5::text, d.request_id, $6::jsonb, 'pending', $7::timestamptz, now(), now()
         FROM done d
        WHERE $4::text IS NOT NULL`,
      [id, at, eventId, delivery?.id ?? null, delivery?.eventType ?? null, delivery ? JSON.stringify(delivery.body) : null, delivery?.dueAt ?? null],
    );
  }

  /** A batch's counts, read from its items (inside the caller's transaction when given one). */
  async countsOf(executor: EntityManager | undefined, id: string): Promise<BatchCounts> {
    const rows = await sqlRows<Record<string, unknown>>(
      executor ?? this.batches.manager,
      `SELECT c.c_created, c.c_failed, c.c_pending FROM payment_batches b ${COUNTS} WHERE b.id = $1`,
      [id],
    );
    return rows[0] ? countsOfRow(rows[0]) : { created: 0, failed: 0, pending: 0 };
  }

  /** Batches still `processing` whose items have all settled: their completion was cut off (a crash between the two). */
  async listSettledButProcessing(limit: number): Promise<string[]> {
    const rows = await sqlRows<{ id: string }>(
      this.batches.manager,
      `SELECT b.id FROM payment_batches b
        WHERE b.status = 'processing'
          AND NOT EXISTS (SELECT 1 FROM payment_batch_items i WHERE i.batch_id = b.id AND i.status = 'pending')
        ORDER BY b.created_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }
}

function countsOfRow(row: Record<string, unknown>): BatchCounts {
  return { created: Number(row.c_created ?? 0), failed: Number(row.c_failed ?? 0), pending: Number(row.c_pending ?? 0) };
}

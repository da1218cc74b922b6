import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintCents } from '../domain/money';
import type { DueTerms } from '../domain/due-charge';

export const BATCH_STATUSES = ['processing', 'completed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export const BATCH_ITEM_STATUSES = ['pending', 'created', 'failed'] as const;
export type BatchItemStatus = (typeof BATCH_ITEM_STATUSES)[number];

/**
 * How a chunk of items is made: `batch`, one PSP batch (`createChargeBatch`) at the account it was
 * bound to; `single`, one create per item through the payments core. Null until the chunk is first
 * claimed.
 */
export type BatchItemMode = 'batch' | 'single';

/** A merchant's batch of due-date charges (docs/api.md, Payment batches). Its counts are always read from its items. */
@Entity({ name: 'payment_batches' })
export class PaymentBatch {
  /** `bat_…`. */
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  @Column({ type: 'text' }) description: string;
  @Column({ type: 'text' }) status: BatchStatus;
  /** The provider of the first account on the merchant's route that takes due-date charges when the batch was accepted: the envelope's `provider`. */
  @Column({ type: 'text' }) provider: string;
  @Column({ name: 'item_count', type: 'integer' }) itemCount: number;
  /** Items per chunk: the account's `chargeBatches.maxCharges` when it takes batches, else a small claim unit. */
  @Column({ name: 'chunk_size', type: 'integer' }) chunkSize: number;
  /** The request that accepted it: the X-Request-Id of its `payment_batch.completed` delivery. */
  @Column({ name: 'request_id', type: 'text' }) requestId: string;
  /** The `payment_batch.completed` event's id, once completed. */
  @Column({ name: 'event_id', type: 'text', nullable: true }) eventId: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt: Date | null;
}

/** One payment a batch asks for, what became of it, and (while pending) the worker's lease on it. */
@Entity({ name: 'payment_batch_items' })
export class PaymentBatchItem {
  @PrimaryColumn({ name: 'batch_id', type: 'text' }) batchId: string;
  /** Its position in the request's `payments`, from 0. */
  @PrimaryColumn({ name: 'item_index', type: 'integer' }) index: number;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  @Column({ name: 'external_id', type: 'text' }) externalId: string;
  /** The chunk it is claimed and (at a PSP that takes batches) asked for in: fixed when the batch is accepted. */
  @Column({ type: 'integer' }) chunk: number;
  /** The create body as validated: what a one-by-one create sends to the payments core. */
  @Column({ type: 'jsonb' }) request: Record<string, unknown>;
  @Column({ name: 'amount_cents', type: 'bigint', transformer: bigintCents }) amountCents: number;
  /** The terms checked when the batch was accepted: a charge asked in a PSP batch carries these, whatever day it is made. */
  @Column({ type: 'jsonb' }) due: DueTerms;
  @Column({ type: 'text' }) status: BatchItemStatus;
  @Column({ type: 'text', nullable: true }) mode: BatchItemMode | null;
  /** The payment made (`created`); in `batch` mode reserved when the chunk is bound, so a retry writes the same payment. */
  @Column({ name: 'payment_id', type: 'text', nullable: true }) paymentId: string | null;
  /** `batch` mode: the charge's txid, and the account and PSP batch it was asked in. */
  @Column({ type: 'text', nullable: true }) txid: string | null;
  @Column({ type: 'text', nullable: true }) provider: string | null;
  @Column({ name: 'provider_account_id', type: 'text', nullable: true }) providerAccountId: string | null;
  @Column({ name: 'psp_batch_id', type: 'text', nullable: true }) pspBatchId: string | null;
  /** When the PSP accepted the batch request; null while it has not (yet) been. */
  @Column({ name: 'asked_at', type: 'timestamptz', nullable: true }) askedAt: Date | null;
  @Column({ name: 'error_code', type: 'text', nullable: true }) errorCode: string | null;
  @Column({ name: 'error_message', type: 'text', nullable: true }) errorMessage: string | null;
  /** Tries so far that did not settle it (failed calls, or reads of a PSP batch still making it). */
  @Column({ type: 'integer', default: 0 }) attempts: number;
  @Column({ name: 'next_attempt_at', type: 'timestamptz' }) nextAttemptAt: Date;
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true }) lockedUntil: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export type IdempotencyState = 'in_progress' | 'retryable' | 'completed';

/**
 * One row per (merchant, Idempotency-Key). The primary key is what makes concurrent requests with
 * one key, across processes, create exactly one payment: only one INSERT wins.
 */
@Entity({ name: 'idempotency_records' })
export class IdempotencyRecord {
  @PrimaryColumn({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  @PrimaryColumn({ type: 'text' })
  key: string;

  /** SHA-256 over method, path and the canonical request body. */
  @Column({ name: 'request_hash', type: 'text' })
  requestHash: string;

  @Column({ name: 'request_path', type: 'text' })
  requestPath: string;

  @Column({ type: 'text' })
  state: IdempotencyState;

  /** While in_progress: until when the owner holds it (a crashed owner's lock lapses). */
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true })
  lockedUntil: Date | null;

  /**
   * Fencing token: bumped whenever a request takes the record over from a holder whose lock
   * lapsed, so a slow earlier holder can no longer complete it.
   */
  @Column({ type: 'integer', default: 1 })
  attempt: number;

  /**
   * The instance id of the gateway process whose request holds (or last held) the record. A process
   * that finds its own id on a record in progress that none of its requests holds any more (their
   * release could not be written: the database was down) takes it over without waiting for the lock.
   */
  @Column({ type: 'text', nullable: true })
  holder: string | null;

  /** Reserved on the first attempt and reused by every retry. */
  @Column({ name: 'payment_id', type: 'text' })
  paymentId: string;

  /** Upstream idempotency key (the Pix txid), reused by every retry. */
  @Column({ type: 'text' })
  txid: string;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus: number | null;

  /** The response body exactly as first sent (text, so a replay is byte-identical). */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}

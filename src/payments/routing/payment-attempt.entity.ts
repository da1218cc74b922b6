import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AccountEnvironment } from '../../providers/provider-adapter';

/** What one account did for a create (docs/providers.md, Routing). */
export type AttemptOutcome = 'charged' | 'refused' | 'circuit_open' | 'ambiguous' | 'rejected';

/** Where the background job stands with the charge an ambiguous attempt may have left at its PSP. */
export type OrphanStatus = 'pending' | 'cancelled' | 'absent' | 'paid' | 'failed';

/**
 * One account tried by a create. `paymentId` is the id the idempotency claim reserved, kept across
 * retries of one key; the payment row exists only once some attempt charged (see the migration).
 */
@Entity({ name: 'payment_attempts' })
export class PaymentAttempt {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'payment_id', type: 'text' }) paymentId: string;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  @Column({ type: 'integer' }) attempt: number;
  @Column({ name: 'account_id', type: 'text', nullable: true }) accountId: string | null;
  @Column({ type: 'text' }) provider: string;
  @Column({ type: 'text' }) environment: AccountEnvironment;
  @Column({ type: 'text', nullable: true }) txid: string | null;
  @Column({ name: 'provider_payment_id', type: 'text', nullable: true }) providerPaymentId: string | null;
  @Column({ type: 'text' }) outcome: AttemptOutcome;
  @Column({ name: 'upstream_status', type: 'integer', nullable: true }) upstreamStatus: number | null;
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ name: 'duration_ms', type: 'integer' }) durationMs: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'orphan_status', type: 'text', nullable: true }) orphanStatus: OrphanStatus | null;
  @Column({ name: 'orphan_tries', type: 'integer', default: 0 }) orphanTries: number;
  @Column({ name: 'orphan_last_error', type: 'text', nullable: true }) orphanLastError: string | null;
  @Column({ name: 'orphan_next_at', type: 'timestamptz', nullable: true }) orphanNextAt: Date | null;
  @Column({ name: 'orphan_locked_until', type: 'timestamptz', nullable: true }) orphanLockedUntil: Date | null;
  @Column({ name: 'orphan_updated_at', type: 'timestamptz', nullable: true }) orphanUpdatedAt: Date | null;
  /** A due-date charge (Pix API `/cobv`) was asked for. */
  @Column({ type: 'boolean', default: false }) due: boolean;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintCents } from '../domain/money';
import type { AttemptStatus, StoredChargeStatus } from '../domain/recurrence';

/** One settlement attempt of a charge, as the PSP reported it. */
export interface ChargeAttempt {
  date: string;
  status: AttemptStatus;
  endToEndId: string | null;
  reason: string | null;
}

/** One cycle's debit of a recurrence. */
@Entity({ name: 'recurring_charges' })
export class RecurringCharge {
  /** `rch_…`. */
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'recurrence_id', type: 'text' }) recurrenceId: string;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  /** The gateway's txid: the PSP's key for the charge. */
  @Column({ type: 'text' }) txid: string;
  /** Which cycle of the recurrence (0 for the first): one live charge per cycle. */
  @Column({ type: 'integer' }) cycle: number;
  @Column({ name: 'amount_cents', type: 'bigint', transformer: bigintCents }) amountCents: number;
  @Column({ name: 'due_date', type: 'date' }) dueDate: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  /** `pending` until the PSP has taken it (never shown to merchants: reads skip it). */
  @Column({ type: 'text' }) status: StoredChargeStatus;
  @Column({ type: 'jsonb', default: () => "'[]'" }) attempts: ChargeAttempt[];
  /** Retries the gateway asked for (`three_in_seven_days`: at most 3). */
  @Column({ type: 'integer', default: 0 }) retries: number;
  @Column({ name: 'end_to_end_id', type: 'text', nullable: true }) endToEndId: string | null;
  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true }) paidAt: Date | null;
  @Column({ name: 'failure_reason', type: 'text', nullable: true }) failureReason: string | null;
  /** When reconciliation next reads it back (past its due date, or a retry still to ask for). */
  @Column({ name: 'next_reconcile_at', type: 'timestamptz', nullable: true }) nextReconcileAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

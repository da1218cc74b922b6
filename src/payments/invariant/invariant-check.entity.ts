import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintCents } from '../../domain/money';
import type { PaymentStatus } from '../../domain/payment-status';
import type { InvariantField } from './money-invariant';

export type InvariantCheckTrigger = 'daily' | 'operator';

/** One run of the money invariant check (migrations/1796030000000-InvariantChecks.ts). */
@Entity({ name: 'invariant_checks' })
export class InvariantCheck {
  /** `ick_…` */
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) trigger: InvariantCheckTrigger;
  /** The day (YYYY-MM-DD, UTC) a daily run is for; null for an operator's. */
  @Column({ name: 'daily_on', type: 'date', nullable: true }) dailyOn: string | null;
  /** Payments created from here on were read (and older ones with a refund since). */
  @Column({ name: 'window_start', type: 'timestamptz' }) windowStart: Date;
  @Column({ name: 'started_at', type: 'timestamptz' }) startedAt: Date;
  /** While running: until when its process holds it (renewed as it works). */
  @Column({ name: 'lease_until', type: 'timestamptz' }) leaseUntil: Date;
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt: Date | null;
  /** Payments read back from their PSP and compared. */
  @Column({ type: 'integer' }) checked: number;
  /** Lines in invariant_mismatches. */
  @Column({ type: 'integer' }) mismatches: number;
  /** Payments of which a part could not be compared (a PSP that lists no refunds, a provider not run here). */
  @Column({ type: 'integer' }) unverifiable: number;
  /** Payments the PSP could not be asked about (an error, a timeout). */
  @Column({ type: 'integer' }) failed: number;
  /** Why the run ended early (it failed, was stopped, or was abandoned by its process); null for a run that went through. */
  @Column({ type: 'text', nullable: true }) error: string | null;
}

/** One payment's money seen differently by its PSP and the gateway, found by a run. */
@Entity({ name: 'invariant_mismatches' })
export class InvariantMismatch {
  @PrimaryColumn({ name: 'check_id', type: 'text' }) checkId: string;
  @PrimaryColumn({ name: 'payment_id', type: 'text' }) paymentId: string;
  @PrimaryColumn({ type: 'text' }) field: InvariantField;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  @Column({ type: 'text' }) provider: string;
  @Column({ name: 'provider_account_id', type: 'text', nullable: true }) providerAccountId: string | null;
  @Column({ name: 'gateway_status', type: 'text' }) gatewayStatus: PaymentStatus;
  @Column({ name: 'psp_status', type: 'text' }) pspStatus: PaymentStatus;
  @Column({ name: 'gateway_cents', type: 'bigint', nullable: true, transformer: bigintCents }) gatewayCents: number | null;
  @Column({ name: 'psp_cents', type: 'bigint', nullable: true, transformer: bigintCents }) pspCents: number | null;
  @Column({ type: 'text' }) note: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

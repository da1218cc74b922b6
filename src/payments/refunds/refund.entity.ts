import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintCents } from '../../domain/money';
import type { RefundOrigin, RefundStatus } from '../../domain/refund';

/**
 * Money returned (or being returned) of one charge: the payment's own, or an orphan charge routing
 * left paid (origin `routing`). See migrations/1795700000000-Refunds.ts for why the columns are so.
 */
@Entity({ name: 'refunds' })
export class Refund {
  /** `ref_…`; also what the PSP's idempotency key is derived from (the Pix API's devolução id, Mercado Pago's X-Idempotency-Key). */
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'payment_id', type: 'text' }) paymentId: string;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  @Column({ type: 'text' }) origin: RefundOrigin;
  @Column({ type: 'text' }) status: RefundStatus;
  @Column({ name: 'amount_cents', type: 'bigint', transformer: bigintCents }) amountCents: number;
  @Column({ type: 'text', nullable: true }) reason: string | null;
  @Column({ name: 'failure_reason', type: 'text', nullable: true }) failureReason: string | null;
  @Column({ type: 'text' }) provider: string;
  @Column({ name: 'provider_account_id', type: 'text', nullable: true }) providerAccountId: string | null;
  /** The charge refunded. */
  @Column({ type: 'text' }) txid: string;
  @Column({ name: 'provider_payment_id', type: 'text', nullable: true }) providerPaymentId: string | null;
  /** The Pix returned, for PSPs that refund by it. */
  @Column({ name: 'end_to_end_id', type: 'text', nullable: true }) endToEndId: string | null;
  /** The PSP's id, once it answered (or reported the refund). */
  @Column({ name: 'provider_refund_id', type: 'text', nullable: true }) providerRefundId: string | null;
  /** Origin `routing`: the attempt whose orphan charge is refunded. */
  @Column({ name: 'attempt_id', type: 'text', nullable: true }) attemptId: string | null;
  /** When reconciliation next sends or reads back this refund while it is pending (its lease). */
  @Column({ name: 'next_check_at', type: 'timestamptz', nullable: true }) nextCheckAt: Date | null;
  @Column({ name: 'check_tries', type: 'integer', default: 0 }) checkTries: number;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true }) settledAt: Date | null;
}

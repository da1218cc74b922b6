import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { bigintCents } from '../../domain/money';

/** webhook: a provider's callback; reconciliation: read back by the gateway; gateway: the PSP's answer to a call the gateway made (a refund, a cancel). */
export type EventSource = 'webhook' | 'reconciliation' | 'gateway';
/** applied: moved the payment; ignored: a transition the state machine refuses (kept in history); amount_mismatch: not applied; unmatched: no such payment. */
export type EventOutcome = 'applied' | 'ignored' | 'amount_mismatch' | 'unmatched';
/** queued: a delivery row was written; no_webhook_url: the merchant has none (recorded, not sent); none: nothing to forward. */
export type EventForward = 'queued' | 'no_webhook_url' | 'none';

/** A provider event as received (or synthesised by reconciliation), with what the gateway did with it. */
@Entity({ name: 'payment_events' })
export class PaymentEvent {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) provider: string;
  /** The provider account the event came through (deduplication is per account); null for a provider's built-in account. */
  @Column({ name: 'provider_account_id', type: 'text', nullable: true }) providerAccountId: string | null;
  @Column({ name: 'provider_event_id', type: 'text' }) providerEventId: string;
  @Column({ type: 'text' }) type: string;
  @Column({ type: 'text' }) source: EventSource;
  @Column({ name: 'payment_id', type: 'text', nullable: true }) paymentId: string | null;
  @Column({ name: 'merchant_id', type: 'text', nullable: true }) merchantId: string | null;
  @Column({ type: 'text' }) outcome: EventOutcome;
  @Column({ name: 'from_status', type: 'text', nullable: true }) fromStatus: string | null;
  @Column({ name: 'to_status', type: 'text', nullable: true }) toStatus: string | null;
  @Column({ name: 'amount_cents', type: 'bigint', nullable: true, transformer: bigintCents }) amountCents: number | null;
  @Column({ type: 'text' }) forward: EventForward;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column({ name: 'request_id', type: 'text' }) requestId: string;
  @Column({ type: 'jsonb' }) payload: unknown;
  /** The refund a refund event is about. */
  @Column({ name: 'refund_id', type: 'text', nullable: true }) refundId: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

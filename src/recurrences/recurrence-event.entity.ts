import { Column, Entity, PrimaryColumn } from 'typeorm';

export type RecurrenceEventSource = 'webhook' | 'reconciliation' | 'merchant' | 'gateway';
export type RecurrenceEventForward = 'queued' | 'no_webhook_url' | 'none';

/** One row of a recurrence's history: what the PSP, the merchant or the gateway did, and whether the merchant is told. */
@Entity({ name: 'recurrence_events' })
export class RecurrenceEvent {
  /** `evt_…`: the id merchants receive. */
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) provider: string;
  @Column({ name: 'provider_account_id', type: 'text', nullable: true }) providerAccountId: string | null;
  /** The deduplication key with the provider and account: the same report told twice is one row. */
  @Column({ name: 'provider_event_id', type: 'text' }) providerEventId: string;
  @Column({ type: 'text' }) type: string;
  @Column({ type: 'text' }) source: RecurrenceEventSource;
  @Column({ name: 'recurrence_id', type: 'text' }) recurrenceId: string;
  @Column({ name: 'recurring_charge_id', type: 'text', nullable: true }) recurringChargeId: string | null;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  @Column({ name: 'from_status', type: 'text', nullable: true }) fromStatus: string | null;
  @Column({ name: 'to_status', type: 'text', nullable: true }) toStatus: string | null;
  @Column({ type: 'text' }) forward: RecurrenceEventForward;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column({ name: 'request_id', type: 'text' }) requestId: string;
  @Column({ type: 'jsonb' }) payload: unknown;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

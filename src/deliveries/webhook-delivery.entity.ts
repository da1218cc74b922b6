import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One forward of one event to one merchant; its id is the Standard Webhooks `webhook-id`. */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDelivery {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'event_id', type: 'text' }) eventId: string;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  /** The payment the event is about, or null for a recurrence's (then `recurrenceId`) or a batch's (then `batchId`): exactly one is set. */
  @Column({ name: 'payment_id', type: 'text', nullable: true }) paymentId: string | null;
  @Column({ name: 'recurrence_id', type: 'text', nullable: true }) recurrenceId: string | null;
  @Column({ name: 'batch_id', type: 'text', nullable: true }) batchId: string | null;
  @Column({ name: 'event_type', type: 'text' }) eventType: string;
  /** The intake request's id: the X-Request-Id of every attempt. */
  @Column({ name: 'request_id', type: 'text' }) requestId: string;
  /** The exact JSON body to send, frozen when the event was applied. */
  @Column({ type: 'jsonb' }) body: unknown;
  @Column({ type: 'text' }) status: DeliveryStatus;
  @Column({ type: 'integer', default: 0 }) attempts: number;
  @Column({ name: 'next_attempt_at', type: 'timestamptz' }) nextAttemptAt: Date;
  @Column({ name: 'locked_until', type: 'timestamptz', nullable: true }) lockedUntil: Date | null;
  @Column({ name: 'last_status_code', type: 'integer', nullable: true }) lastStatusCode: number | null;
  @Column({ name: 'last_error', type: 'text', nullable: true }) lastError: string | null;
  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true }) deliveredAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One HTTP attempt of a delivery: when, to where, what came back and how long it took. */
@Entity({ name: 'webhook_delivery_attempts' })
export class WebhookDeliveryAttempt {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'delivery_id', type: 'text' }) deliveryId: string;
  @Column({ type: 'integer' }) attempt: number;
  @Column({ type: 'text', nullable: true }) url: string | null;
  @Column({ name: 'status_code', type: 'integer', nullable: true }) statusCode: number | null;
  @Column({ name: 'latency_ms', type: 'integer', nullable: true }) latencyMs: number | null;
  @Column({ type: 'text', nullable: true }) error: string | null;
  /** The start of the answer's body (at most 1 KiB, postToMerchant); null when none came. */
  @Column({ name: 'response_excerpt', type: 'text', nullable: true }) responseExcerpt: string | null;
  @Column({ name: 'attempted_at', type: 'timestamptz' }) attemptedAt: Date;
}

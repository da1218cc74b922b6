import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { isoOrNull } from '../../common/dates';
import type { WebhookDelivery } from '../webhook-delivery.entity';

// A forward's history as the payment's and the recurrence's admin pages show it (their features import it from here).

export class DeliveryAttemptView {
  @ApiProperty({ example: 1 }) attempt: number;
  @ApiProperty({ format: 'date-time' }) attempted_at: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://shop.example/webhooks/pix' }) url: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 200 }) status_code: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 84 }) latency_ms: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'timeout after 10000 ms' }) error: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: '{"received":true}', description: 'The start of the answer body: at most 1 KiB of UTF-8.' })
  response_excerpt: string | null;
}

/** One forward of one event to the merchant, with every HTTP attempt made so far. */
export class PaymentDeliveryView {
  @ApiProperty({ example: 'dlv_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: 'Also the Standard Webhooks `webhook-id`.' }) id: string;
  @ApiProperty({ example: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) event_id: string;
  @ApiProperty({ example: 'payment.confirmed' }) event_type: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status: string;
  @ApiProperty({ example: 1, description: 'Attempts started so far (one may still be in flight, not yet in `attempts`).' }) attempt_count: number;
  @ApiProperty({ format: 'date-time' }) next_attempt_at: string;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 200 }) last_status_code: number | null;
  @ApiPropertyOptional({ type: String, nullable: true }) last_error: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) delivered_at: string | null;
  @ApiProperty({ format: 'uuid', description: 'The intake request id, sent as X-Request-Id on every attempt.' }) request_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiProperty({ type: [DeliveryAttemptView], description: 'Every attempt made, oldest first.' }) attempts: DeliveryAttemptView[];
}

/** A forward as a payment's or a recurrence's page shows it, with its attempts. */
export function toDeliveryView(delivery: WebhookDelivery, attempts: PaymentDeliveryView['attempts']): PaymentDeliveryView {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    status: delivery.status,
    attempt_count: delivery.attempts,
    next_attempt_at: delivery.nextAttemptAt.toISOString(),
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    delivered_at: isoOrNull(delivery.deliveredAt),
    request_id: delivery.requestId,
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
    attempts,
  };
}

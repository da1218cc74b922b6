import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { WebhookDeliveryAttempt } from '../webhook-delivery-attempt.entity';

/** One forward of one event to one merchant, as the admin API lists it. */
export class DeliveryView {
  @ApiProperty({ example: 'dlv_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: 'Also the Standard Webhooks `webhook-id`, the same on every attempt.' }) id: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status: string;
  @ApiProperty({ example: 'payment.confirmed' }) event_type: string;
  @ApiProperty({ example: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) event_id: string;
  @ApiProperty({ type: String, nullable: true, example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: 'The payment the event is about; null for a recurrence event.' })
  payment_id: string | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'The recurrence a `recurrence.*` or `recurring_charge.*` event is about; null for a payment event.' })
  recurrence_id: string | null;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'The payment batch a `payment_batch.completed` event is about; null otherwise.' })
  batch_id: string | null;
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) merchant_id: string;
  @ApiProperty({ example: 'Loja da Ana' }) merchant_name: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://shop.example/webhooks/pix', description: "The merchant's webhook URL now." })
  webhook_url: string | null;
  @ApiProperty({ example: 2, description: 'Attempts made so far.' }) attempts: number;
  @ApiProperty({ format: 'date-time', description: 'When the next attempt is due (pending deliveries).' }) next_attempt_at: string;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 503 }) last_status_code: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'timeout after 10000 ms' }) last_error: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) delivered_at: string | null;
  @ApiProperty({ format: 'uuid', description: 'The intake request id, sent as X-Request-Id on every attempt.' }) request_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class DeliveryPage {
  @ApiProperty({ type: [DeliveryView] }) items: DeliveryView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}

/** One attempt of a delivery and what the merchant's endpoint answered. */
export class DeliveryAnswerView {
  @ApiProperty({ example: 1, description: '1 for the first attempt.' }) attempt: number;
  @ApiProperty({ format: 'date-time' }) attempted_at: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://shop.example/webhooks/pix', description: 'Where this attempt was sent.' }) url: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 500, description: 'null when no answer came.' }) status_code: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 84 }) latency_ms: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'HTTP 500' }) error: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '{"error":"order not found"}',
    description:
      "The start of the endpoint's answer body, as it came: at most 1 KiB of UTF-8, cut at a whole character. null when no answer came (or for attempts made before it was kept).",
  })
  response_excerpt: string | null;
}

/** A delivery with the body it sends and every attempt's answer. */
export class DeliveryDetailView extends DeliveryView {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The exact JSON body sent on every attempt (docs/webhooks.md, What arrives).',
    example: {
      event: 'payment.confirmed',
      id: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A',
      created_at: '2026-11-26T12:00:00.000Z',
      data: {
        id: 'pay_8f2kTMd9Q2xLr8VbN1cZp4Wf',
        amount: 10.5,
        status: 'paid',
        externalId: 'order-1234',
        provider: 'efi',
        paidAt: '2026-11-26T12:00:00.000Z',
        paidAfterClose: false,
        refundedAmount: 0,
      },
    },
  })
  body: Record<string, unknown>;
  @ApiProperty({ type: [DeliveryAnswerView], description: 'Every attempt made, oldest first.' }) attempt_history: DeliveryAnswerView[];
}

/** What a merchant's endpoint said to a test event. */
export class TestEventResultView {
  @ApiProperty({ example: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: "The event's id, also its `webhook-id`." }) id: string;
  @ApiProperty({
    description: 'The exact JSON body sent.',
    type: 'object',
    additionalProperties: true,
    example: {
      event: 'test.ping',
      id: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A',
      created_at: '2026-11-26T12:00:00.000Z',
      data: { merchant_id: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A', timestamp: '2026-11-26T12:00:00.000Z' },
    },
  })
  body: Record<string, unknown>;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://shop.example/webhooks/pix' }) url: string | null;
  @ApiProperty({ example: true, description: 'Whether the endpoint answered 2xx, as a delivery would count it.' }) ok: boolean;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 200, description: 'null when no answer came.' }) status_code: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 84 }) latency_ms: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9', description: 'Why there was no usable answer.' }) error:
    string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: '{"received":true}', description: 'The start of the answer body: at most 1 KiB of UTF-8.' }) response_excerpt:
    string | null;
  @ApiProperty({ format: 'date-time' }) sent_at: string;
}

/** One attempt as the admin API shows it, on a delivery's detail and a payment's. */
export function toAnswerView(attempt: WebhookDeliveryAttempt): DeliveryAnswerView {
  return {
    attempt: attempt.attempt,
    attempted_at: attempt.attemptedAt.toISOString(),
    url: attempt.url,
    status_code: attempt.statusCode,
    latency_ms: attempt.latencyMs,
    error: attempt.error,
    response_excerpt: attempt.responseExcerpt,
  };
}

import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

/** What every event's body is: `{event, id, created_at, data}` (docs/webhooks.md, What arrives). */
export interface EventBodyOf<E extends string, D> {
  event: E;
  id: string;
  created_at: string;
  data: D;
}

/**
 * One event type's entry in the document's `webhooks` (src/api-webhooks.ts): the schema of its
 * body, when it is sent, and a whole body as an example. Each feature documents the events it sends.
 */
export interface EventDoc {
  schema: Type<unknown>;
  summary: string;
  description: string;
  example: EventBodyOf<string, object>;
}

/**
 * The schema class of one event type's body, to extend: `class PaymentConfirmedEvent extends
 * EventBody('payment.confirmed', PaymentEventData, '…') {}`. The subclass's name is the schema's
 * name in the document; `event` is that one type, so each webhook's schema says which body it is.
 */
export function EventBody<E extends string, D>(event: E, data: Type<D>, dataDescription: string): Type<EventBodyOf<E, D>> {
  class Body implements EventBodyOf<E, D> {
    @ApiProperty({ type: String, enum: [event], example: event, description: 'The event type; the same as the `X-Webhook-Event` header.' }) event: E;
    @ApiProperty({
      example: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A',
      description: "The gateway's id of the event (`evt_…`), the same on every retry and redelivery of its delivery.",
    })
    id: string;
    @ApiProperty({ format: 'date-time', example: '2026-11-26T12:01:00.123Z', description: 'When the gateway recorded the event (UTC, milliseconds).' })
    created_at: string;
    @ApiProperty({ type: data, description: dataDescription }) data: D;
  }
  return Body;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PaymentDeliveryView } from '../deliveries/dto/delivery-history.view';
import { ACTIVE_RECURRENCE_EXAMPLE, PAID_CHARGE_EXAMPLE } from './recurrence-examples';
import { RecurrenceView, RecurringChargeView } from './recurrence.view';

/** A recurrence as the admin API lists it: the merchant's view, and whose it is. */
export class AdminRecurrenceView extends RecurrenceView {
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) merchant_id: string;
}

export class AdminRecurrencePageView {
  @ApiProperty({ type: [AdminRecurrenceView] }) items: AdminRecurrenceView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}

/** One entry of a recurrence's history: what the PSP, the merchant or the gateway did, and whether the merchant was told. */
export class RecurrenceEventView {
  @ApiProperty({ example: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({ example: 'recurrence.authorized', description: 'The event merchants receive, or `recurrence.news` / `recurring_charge.news` for news that changed nothing.' })
  type: string;
  @ApiProperty({ enum: ['webhook', 'reconciliation', 'merchant', 'gateway'] }) source: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: null, description: 'The charge a `recurring_charge.*` event is about.' }) recurring_charge_id: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'pending_authorization' }) from_status: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'active' }) to_status: string | null;
  @ApiProperty({ enum: ['queued', 'no_webhook_url', 'none'] }) forward: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: null }) note: string | null;
  @ApiProperty({ example: 'sandbox:rec:2353c790eefb11eaadc10242ac120002:APROVADA', description: "The provider's id of the news (deduplication key)." }) provider_event_id: string;
  @ApiProperty({ format: 'uuid', description: 'The request that recorded it (the X-Request-Id of its forward).' }) request_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** `GET /admin/api/recurrences/:id`: the recurrence, its charges with their attempts, its history and its deliveries. */
export class AdminRecurrenceDetailView extends AdminRecurrenceView {
  @ApiProperty({ description: "Whether the recurrence's provider is a test PSP that can simulate the payer's side (`POST …/simulate`)." }) can_simulate: boolean;
  @ApiProperty({ description: 'Whether it can be cancelled now: waiting for the payer or active, at a provider that offers Pix Automático.' }) can_cancel: boolean;
  @ApiProperty({ type: [RecurringChargeView], description: 'Its charges, oldest due date first, each with its settlement attempts.' }) charges: RecurringChargeView[];
  @ApiProperty({ type: [RecurrenceEventView], description: "Its history and its charges', oldest first." }) events: RecurrenceEventView[];
  @ApiProperty({ type: [PaymentDeliveryView], description: 'Each `recurrence.*` and `recurring_charge.*` event forwarded to the merchant, with every HTTP attempt.' })
  deliveries: PaymentDeliveryView[];
}

export class RecurringSimulationView {
  @ApiProperty({ example: 'sbx_evt_9f2c', description: "The test PSP's id for the callback it sent." }) eventId: string;
  @ApiProperty({ example: true, description: 'Whether the gateway answered the callback with a 2xx.' }) delivered: boolean;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 200, description: "The gateway's HTTP status for the callback." }) status: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { id: 'RR1234567820261126abcdefghijk', status: 'APROVADA' },
    description: 'The recurrence or the charge as the test PSP holds it after the simulation.',
  })
  subject: Record<string, unknown>;
}

export class RecurringSimulationResultView {
  @ApiProperty({ type: RecurringSimulationView }) simulation: RecurringSimulationView;
  @ApiProperty({ type: AdminRecurrenceDetailView, description: 'The recurrence read again after the PSP delivered its callback.' }) recurrence: AdminRecurrenceDetailView;
}

const MERCHANT = 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A';

export const ADMIN_RECURRENCE_EXAMPLE = { ...ACTIVE_RECURRENCE_EXAMPLE, merchant_id: MERCHANT };

export const ADMIN_RECURRENCE_DETAIL_EXAMPLE = {
  ...ADMIN_RECURRENCE_EXAMPLE,
  can_simulate: false,
  can_cancel: true,
  charges: [PAID_CHARGE_EXAMPLE],
  events: [
    {
      id: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A',
      type: 'recurrence.authorized',
      source: 'webhook',
      recurring_charge_id: null,
      from_status: 'pending_authorization',
      to_status: 'active',
      forward: 'queued',
      note: null,
      provider_event_id: 'efi:rec:RR1234567820261126abcdefghijk:APROVADA',
      request_id: '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11',
      created_at: '2026-11-26T12:03:00.000Z',
    },
  ],
  deliveries: [
    {
      id: 'dlv_3kTMd9Q2xLr8VbN1cZp4Wf7A',
      event_id: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A',
      event_type: 'recurrence.authorized',
      status: 'delivered',
      attempt_count: 1,
      next_attempt_at: '2026-11-26T12:03:00.000Z',
      last_status_code: 200,
      last_error: null,
      delivered_at: '2026-11-26T12:03:00.084Z',
      request_id: '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11',
      created_at: '2026-11-26T12:03:00.000Z',
      updated_at: '2026-11-26T12:03:00.084Z',
      attempts: [
        {
          attempt: 1,
          attempted_at: '2026-11-26T12:03:00.000Z',
          url: 'https://shop.example/webhooks/pix',
          status_code: 200,
          latency_ms: 84,
          error: null,
          response_excerpt: '{"received":true}',
        },
      ],
    },
  ],
};

/** A sandbox recurrence the payer has just authorized, by simulation. */
export const RECURRENCE_SIMULATION_EXAMPLE = {
  simulation: { eventId: 'sbx_evt_9f2c', delivered: true, status: 200, subject: { id: 'RR1234567820261126abcdefghijk', status: 'APROVADA' } },
  recurrence: {
    ...ADMIN_RECURRENCE_DETAIL_EXAMPLE,
    provider: 'sandbox',
    environment: 'sandbox',
    can_simulate: true,
    charges: [],
    deliveries: [],
  },
};

export const CHARGE_SIMULATION_EXAMPLE = {
  simulation: { eventId: 'sbx_evt_a71d', delivered: true, status: 200, subject: { txid: PAID_CHARGE_EXAMPLE.txid, status: 'CONCLUIDA' } },
  recurrence: { ...RECURRENCE_SIMULATION_EXAMPLE.recurrence, charges: [PAID_CHARGE_EXAMPLE] },
};

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../domain/payment-status';

/** `data` of a `POST /webhooks/:provider` answer (docs/api.md, Webhook intake). */
export class WebhookIntakeResult {
  @ApiProperty({ example: true }) received: true;
  @ApiProperty({ example: false, description: 'This provider event id was received before; nothing was done again.' }) duplicate: boolean;
  @ApiPropertyOptional({ example: true, description: 'Whether `data.id` named a payment of this provider. Absent on duplicates.' }) matched?: boolean;
  @ApiPropertyOptional({ example: true, description: 'Whether the event changed the payment.' }) applied?: boolean;
  @ApiPropertyOptional({
    enum: ['amount_mismatch', 'transition_not_allowed'],
    description: 'Why a matched event was not applied: its amount differs from the payment, or the state machine refuses the transition (recorded in the history).',
  })
  reason?: 'amount_mismatch' | 'transition_not_allowed';
  @ApiPropertyOptional({ enum: PAYMENT_STATUSES, example: 'paid', description: 'The payment status after the event.' }) status?: PaymentStatus;
  @ApiPropertyOptional({
    enum: ['queued', 'no_webhook_url', 'none'],
    description: 'queued: a forward to the merchant was queued; no_webhook_url: the merchant has none; none: nothing to forward.',
  })
  forward?: 'queued' | 'no_webhook_url' | 'none';
  @ApiPropertyOptional({ example: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: "The gateway's id for the stored event." }) event_id?: string;
  @ApiPropertyOptional({ example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) payment_id?: string;
}

/** `data` of a callback to a provider account (`POST /webhooks/:provider/:account/…`): one result per event it proved. */
export class AccountCallbackResult {
  @ApiProperty({ example: true }) received: true;
  @ApiProperty({ example: false, description: 'Every event of the callback had been received before (false for a callback without events).' }) duplicate: boolean;
  @ApiProperty({ type: [WebhookIntakeResult], description: "One per Pix the PSP confirmed, in the callback's order; duplicates within the callback appear once." })
  events: WebhookIntakeResult[];
}

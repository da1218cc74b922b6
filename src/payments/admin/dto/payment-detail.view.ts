import { AdminRefundView } from '../../refunds/refund.view';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PaymentView } from '../../payment.view';
import { PaymentDeliveryView } from '../../../deliveries/dto/delivery-history.view';

/** One entry of a payment's event history: what arrived, and what the gateway did with it. */
export class PaymentEventView {
  @ApiProperty({ example: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({ example: 'payment.confirmed' }) type: string;
  @ApiProperty({
    enum: ['webhook', 'reconciliation', 'gateway'],
    description: 'A PSP callback, a read-back by reconciliation, or the gateway itself (a simulated event, a cancellation).',
  })
  source: string;
  @ApiProperty({ enum: ['applied', 'ignored', 'amount_mismatch', 'unmatched'] }) outcome: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'pending' }) from_status: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'paid', description: 'The status the event asked for.' }) to_status: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 10.5, description: 'The amount the event reported, in reais.' }) amount: number | null;
  @ApiProperty({ enum: ['queued', 'no_webhook_url', 'none'] }) forward: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'A paid payment cannot become expired.' }) note: string | null;
  @ApiProperty({ example: 'evt_sbx_9f2c', description: "The provider's event id (deduplication key)." }) provider_event_id: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: null, description: 'The refund a refund event is about.' }) refund_id: string | null;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: null,
    description: "On a due-date charge's `amount_mismatch` (paid anyway): what was due, in reais, the day it was paid; null on every other event.",
  })
  amount_due?: number | null;
  @ApiProperty({ format: 'uuid', description: 'The intake request (the X-Request-Id of its forwards).' }) request_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** The charge an ambiguous attempt may have left at its PSP, and what the orphan job made of it. */
export class AttemptOrphanView {
  @ApiProperty({
    enum: ['pending', 'cancelled', 'absent', 'paid', 'failed'],
    description:
      'pending: not settled yet; cancelled: the charge existed and was cancelled; absent: the PSP has no such charge; paid: the payer paid it before cancellation (refund it); failed: gave up after retries.',
  })
  status: 'pending' | 'cancelled' | 'absent' | 'paid' | 'failed';
  @ApiProperty({ example: 1, description: 'Tries made by the orphan job so far.' }) tries: number;
  @ApiPropertyOptional({ type: String, nullable: true }) last_error: string | null;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

/** One account a create tried (docs/providers.md, Routing). */
export class PaymentAttemptView {
  @ApiProperty({ example: 'att_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({ example: 1, description: 'Order within the payment, across retries of the same Idempotency-Key (1-based).' }) attempt: number;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'pa_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: "Null for a provider's built-in account." })
  account_id: string | null;
  @ApiProperty({ example: 'pix-api' }) provider: string;
  @ApiProperty({ enum: ['sandbox', 'production'] }) environment: 'sandbox' | 'production';
  @ApiPropertyOptional({ type: String, nullable: true }) txid: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) provider_payment_id: string | null;
  @ApiProperty({
    enum: ['charged', 'refused', 'circuit_open', 'ambiguous', 'rejected'],
    description:
      'charged: this account made the charge the payment uses; refused: refused before charging, moved on; circuit_open: skipped, circuit open; ambiguous: timeout or 5xx, moved on, orphan recorded; rejected: the PSP refused the payment itself, the create failed.',
  })
  outcome: 'charged' | 'refused' | 'circuit_open' | 'ambiguous' | 'rejected';
  @ApiPropertyOptional({ type: Number, nullable: true, example: 503 }) upstream_status: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'A short reason for the operator.' }) error: string | null;
  @ApiProperty({ example: 84 }) duration_ms: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiPropertyOptional({ type: AttemptOrphanView, nullable: true, description: 'Only on ambiguous attempts.' }) orphan: AttemptOrphanView | null;
}

/** When a due-date charge can be paid, on Brazil's business-day calendar (src/domain/due-charge.ts). */
export class DueDatesView {
  @ApiProperty({
    format: 'date',
    example: '2026-12-10',
    description: 'The last day it can be paid without fine or interest: the due date, moved to the next business day when it is a weekend or holiday.',
  })
  effective_due_date: string;
  @ApiProperty({ format: 'date', example: '2027-01-11', description: 'The last day it can be paid at all (Brasília); after it, it expires.' })
  last_payable_date: string;
  @ApiProperty({ format: 'date', example: '2026-12-01', description: "The day `amountDue` is for: today in Brasília on the gateway's clock." })
  amount_due_on: string;
}

/** `GET /admin/api/payments/:id`: the payment, its event history (oldest first), its deliveries and the accounts its create tried. */
export class PaymentDetailView extends PaymentView {
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) merchantId: string;
  @ApiProperty({ description: "Whether the payment's provider is a test PSP that can simulate events on it (`POST …/simulate`)." }) can_simulate: boolean;
  @ApiProperty({ type: [PaymentEventView] }) events: PaymentEventView[];
  @ApiProperty({ type: [PaymentDeliveryView] }) deliveries: PaymentDeliveryView[];
  @ApiProperty({ type: [PaymentAttemptView], description: 'Every account the create tried, oldest first.' }) attempts: PaymentAttemptView[];
  @ApiProperty({ type: [AdminRefundView], description: 'Every refund, oldest first: the merchant’s, those made at the PSP or by MED, and routing’s of orphan charges.' })
  refunds: AdminRefundView[];
  @ApiProperty({ description: 'Whether a refund can be asked for now: paid or partially refunded, something neither refunded nor pending, and the provider refunds.' })
  can_refund: boolean;
  @ApiProperty({ description: 'Whether the payment can be cancelled now: pending, and the provider cancels.' }) can_cancel: boolean;
  @ApiPropertyOptional({ type: DueDatesView, nullable: true, description: "A due-date charge's dates as the gateway counts them; null for an immediate charge." })
  due_dates?: DueDatesView | null;
}

export class SimulationView {
  @ApiProperty({ example: 'evt_sbx_9f2c', description: "The test PSP's id for the event it sent." }) eventId: string;
  @ApiProperty({ example: true, description: 'Whether the gateway answered the signed event with a 2xx.' }) delivered: boolean;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 200, description: "The gateway's HTTP status for the event." }) status: number | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { id: 'sbx_8f2kQ7mN3pL9', txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E', status: 'CONCLUIDA', amount: '10.50', currency: 'BRL', paidAt: '2026-11-26T12:01:00.000Z' },
    description: "The PSP's charge after the event.",
  })
  charge: Record<string, unknown>;
}

export class SimulationResultView {
  @ApiProperty({ type: SimulationView }) simulation: SimulationView;
  @ApiProperty({ type: PaymentDetailView, description: 'The payment read again after the PSP delivered its event.' }) payment: PaymentDetailView;
}

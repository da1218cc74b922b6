import { ApiProperty } from '@nestjs/swagger';
import { EventBody, type EventBodyOf, type EventDoc } from '../../deliveries/event-body';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../domain/payment-status';
import type { MerchantEventType } from '../../domain/provider-event';
import type { ForwardedPaymentData } from './delivery-body';

/** The payment events (the refund events are in refunds/refund-event-bodies.ts). */
export type ForwardedPaymentEventType = Exclude<MerchantEventType, `refund.${string}`>;

/** `data` of every payment event, and a refund event's `payment`: the payment as `delivery-body.ts` builds it (docs/webhooks.md, Events). */
export class PaymentEventData implements ForwardedPaymentData {
  @ApiProperty({ example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({ example: 10.5, description: 'Decimal reais.' }) amount: number;
  @ApiProperty({ enum: PAYMENT_STATUSES, example: 'paid', description: 'The status the event left the payment in.' }) status: PaymentStatus;
  @ApiProperty({ example: 'order-1234', description: "The merchant's own id of the order." }) externalId: string;
  @ApiProperty({ example: 'efi', description: 'The provider that holds the charge.' }) provider: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-11-26T12:01:00.000Z', description: 'When it was paid; null while never paid.' })
  paidAt: string | null;
  @ApiProperty({
    example: false,
    description: 'True when the Pix was received after the payment was cancelled or expired: money the payer should get back (docs/webhooks.md). False on every other payment.',
  })
  paidAfterClose: boolean;
  @ApiProperty({ example: 0, description: 'Decimal reais returned to the payer so far: the sum of succeeded refunds.' }) refundedAmount: number;
}

const DATA = 'The payment as the event left it. Read it (`GET /v1/payments/{id}`) for the rest: the paying Pix, `paidAmount`, `payer`.';

export class PaymentConfirmedEvent extends EventBody('payment.confirmed', PaymentEventData, DATA) {}
export class PaymentExpiredEvent extends EventBody('payment.expired', PaymentEventData, DATA) {}
export class PaymentCancelledEvent extends EventBody('payment.cancelled', PaymentEventData, DATA) {}
export class PaymentFailedEvent extends EventBody('payment.failed', PaymentEventData, DATA) {}
export class PaymentPartiallyRefundedEvent extends EventBody('payment.partially_refunded', PaymentEventData, DATA) {}
export class PaymentRefundedEvent extends EventBody('payment.refunded', PaymentEventData, DATA) {}
export class PaymentUpdatedEvent extends EventBody('payment.updated', PaymentEventData, DATA) {}

/** One payment at Efí, paid and then refunded in part, then in full; or left to close unpaid. */
export const PAID_PAYMENT_DATA_EXAMPLE: PaymentEventData = {
  id: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A',
  amount: 10.5,
  status: 'paid',
  externalId: 'order-1234',
  provider: 'efi',
  paidAt: '2026-11-26T12:01:00.000Z',
  paidAfterClose: false,
  refundedAmount: 0,
};

function example(event: ForwardedPaymentEventType, id: string, createdAt: string, data: Partial<PaymentEventData>): EventBodyOf<ForwardedPaymentEventType, PaymentEventData> {
  return { event, id, created_at: createdAt, data: { ...PAID_PAYMENT_DATA_EXAMPLE, ...data } };
}

const UNPAID = { paidAt: null };

export const PAYMENT_EVENT_DOCS: Record<ForwardedPaymentEventType, EventDoc> = {
  'payment.confirmed': {
    schema: PaymentConfirmedEvent,
    summary: 'A payment was paid',
    description:
      'The payer paid: while the payment was open, or after it was cancelled or expired (then `paidAfterClose` is true: ' +
      "refund it, unless the merchant's `refund_after_close` is on and the gateway refunds it itself). `data.status` is `paid`.",
    example: example('payment.confirmed', 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A', '2026-11-26T12:01:00.123Z', {}),
  },
  'payment.expired': {
    schema: PaymentExpiredEvent,
    summary: 'A payment expired unpaid',
    description: 'The charge reached its expiry unpaid. `data.status` is `expired`. A Pix received later still arrives, as `payment.confirmed` with `paidAfterClose`.',
    example: example('payment.expired', 'evt_4mUNe0R3yMs9WcO2dAq5Xg8B', '2026-11-26T13:00:00.412Z', { status: 'expired', ...UNPAID }),
  },
  'payment.cancelled': {
    schema: PaymentCancelledEvent,
    summary: 'A payment was cancelled',
    description: 'The charge was cancelled unpaid (`POST /v1/payments/{id}/cancel`, or at the PSP). `data.status` is `cancelled`.',
    example: example('payment.cancelled', 'evt_5nVOf1S4zNt0XdP3eBr6Yh9C', '2026-11-26T12:05:00.208Z', { status: 'cancelled', ...UNPAID }),
  },
  'payment.failed': {
    schema: PaymentFailedEvent,
    summary: 'A payment failed',
    description: 'The PSP reports the charge failed; it ends unpaid. `data.status` is `failed`.',
    example: example('payment.failed', 'evt_6oWPg2T5aOu1YeQ4fCs7Zi0D', '2026-11-26T12:02:00.731Z', { status: 'failed', ...UNPAID }),
  },
  'payment.partially_refunded': {
    schema: PaymentPartiallyRefundedEvent,
    summary: 'Part of a payment was refunded',
    description:
      "A refund succeeded and part of the payment is still kept; sent after that refund's `refund.succeeded`. `data.status` is `partially_refunded`, `data.refundedAmount` the sum returned so far.",
    example: example('payment.partially_refunded', 'evt_7pXQh3U6bPv2ZfR5gDt8Aj1E', '2026-11-26T14:00:01.019Z', { status: 'partially_refunded', refundedAmount: 3.5 }),
  },
  'payment.refunded': {
    schema: PaymentRefundedEvent,
    summary: 'A payment was refunded in full',
    description: "Refunds now add up to the whole payment; sent after the last refund's `refund.succeeded`. `data.status` is `refunded`.",
    example: example('payment.refunded', 'evt_8qYRi4V7cQw3AgS6hEu9Bk2F', '2026-11-26T15:00:00.877Z', { status: 'refunded', refundedAmount: 10.5 }),
  },
  'payment.updated': {
    schema: PaymentUpdatedEvent,
    summary: 'A due-date charge was changed',
    description:
      'A pending due-date charge was changed (`PATCH /v1/payments/{id}`): `data.amount` is its new original amount; read it for the new `due` terms and `amountDue`. ' +
      'Its BR Code is the same. `data.status` is `pending`.',
    example: example('payment.updated', 'evt_9rZSj5W8dRx4BhT7iFv0Cl3G', '2026-11-26T12:30:00.310Z', { amount: 150, status: 'pending', ...UNPAID }),
  },
};

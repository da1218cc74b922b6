import { ApiProperty } from '@nestjs/swagger';
import { EventBody, type EventDoc } from '../../deliveries/event-body';
import type { ForwardedRefundData } from '../lifecycle/delivery-body';
import { PAID_PAYMENT_DATA_EXAMPLE, PaymentEventData } from '../lifecycle/payment-event-bodies';
import { RefundView } from './refund.view';

/** `data` of a refund event: the refund as `GET /v1/refunds/{id}` answers it, with its payment as the refund left it (delivery-body.ts, refundDeliveryBody). */
export class RefundEventData extends RefundView implements ForwardedRefundData {
  @ApiProperty({ type: PaymentEventData, description: 'The payment as the refund left it: its `status` and `refundedAmount` after it.' }) payment: PaymentEventData;
}

const DATA = 'The refund as settled, with its payment.';

export class RefundSucceededEvent extends EventBody('refund.succeeded', RefundEventData, DATA) {}
export class RefundFailedEvent extends EventBody('refund.failed', RefundEventData, DATA) {}

const REFUND: Omit<RefundEventData, 'status' | 'failureReason' | 'updatedAt' | 'payment'> = {
  id: 'ref_9xQ2mN4pL7sT1vB8cD3fG6hJ',
  paymentId: PAID_PAYMENT_DATA_EXAMPLE.id,
  amount: 3.5,
  origin: 'merchant',
  reason: 'Item returned',
  createdAt: '2026-11-26T14:00:00.000Z',
};

export const REFUND_EVENT_DOCS: Record<'refund.succeeded' | 'refund.failed', EventDoc> = {
  'refund.succeeded': {
    schema: RefundSucceededEvent,
    summary: 'A refund reached the payer',
    description:
      "A refund's money reached the payer: one the merchant asked for, or one made at the PSP (`origin: psp`) or by a MED return (`origin: med`). " +
      'Sent once per refund, followed by `payment.partially_refunded` or `payment.refunded`.',
    example: {
      event: 'refund.succeeded',
      id: 'evt_2jSLc8P1wKq7UaM0bYo3Ve6Z',
      created_at: '2026-11-26T14:00:01.018Z',
      data: {
        ...REFUND,
        status: 'succeeded',
        failureReason: null,
        updatedAt: '2026-11-26T14:00:01.000Z',
        payment: { ...PAID_PAYMENT_DATA_EXAMPLE, status: 'partially_refunded', refundedAmount: 3.5 },
      },
    },
  },
  'refund.failed': {
    schema: RefundFailedEvent,
    summary: 'A refund failed',
    description: 'The PSP could not carry a refund out (`data.failureReason` says why); its amount can be refunded again. The payment is unchanged.',
    example: {
      event: 'refund.failed',
      id: 'evt_1iRKb7O0vJp6TzL9aXn2Ud5Y',
      created_at: '2026-11-26T14:00:02.540Z',
      data: {
        ...REFUND,
        status: 'failed',
        failureReason: 'Refund refused by the PSP: the receiving account is closed.',
        updatedAt: '2026-11-26T14:00:02.500Z',
        payment: PAID_PAYMENT_DATA_EXAMPLE,
      },
    },
  },
};

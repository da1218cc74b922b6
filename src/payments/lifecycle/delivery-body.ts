import { centsToReais } from '../../domain/money';
import type { PaymentStatus } from '../../domain/payment-status';
import type { MerchantEventType } from '../../domain/provider-event';
import { type RefundFields, type RefundView, toRefundView } from '../refunds/refund.view';

/** A payment as merchants receive it in every event (docs/webhooks.md). */
export interface ForwardedPaymentData {
  id: string;
  amount: number;
  status: PaymentStatus;
  externalId: string;
  provider: string;
  paidAt: string | null;
  /** Paid by a Pix received after the payment was cancelled or expired (docs/api.md, States); false otherwise. */
  paidAfterClose: boolean;
  /** Decimal reais returned so far. */
  refundedAmount: number;
}

/** `refund.succeeded` / `refund.failed`: the refund as merchants read it (GET /v1/refunds/:id), with its payment as the refund left it. */
export type ForwardedRefundData = RefundView & { payment: ForwardedPaymentData };

/** The body forwarded to the merchant (docs/api.md, Forwarding to merchants), frozen in the delivery row when the event is applied. */
export interface DeliveryBody {
  event: MerchantEventType;
  /** The gateway's event id (`evt_…`), not the provider's. */
  id: string;
  created_at: string;
  data: ForwardedPaymentData | ForwardedRefundData;
}

export interface DeliveredPayment {
  id: string;
  amountCents: number;
  refundedAmountCents: number;
  status: PaymentStatus;
  externalId: string;
  provider: string;
  paidAt: Date | null;
  /** Absent: false (a payment that was never closed when paid). */
  paidAfterClose?: boolean;
}

function paymentData(payment: DeliveredPayment): ForwardedPaymentData {
  return {
    id: payment.id,
    amount: centsToReais(payment.amountCents),
    status: payment.status,
    externalId: payment.externalId,
    provider: payment.provider,
    paidAt: payment.paidAt ? payment.paidAt.toISOString() : null,
    paidAfterClose: payment.paidAfterClose ?? false,
    refundedAmount: centsToReais(payment.refundedAmountCents),
  };
}

/**
 * A body before its event is stored: `created_at` is the event row's time, which the statement
 * storing the event and its delivery fills in (PaymentEventRepository.insertWithOutbox).
 */
export type UndatedDeliveryBody = Omit<DeliveryBody, 'created_at'>;

/** `payment` is the payment as the event left it. */
export function deliveryBody(eventId: string, type: MerchantEventType, payment: DeliveredPayment): UndatedDeliveryBody {
  return { event: type, id: eventId, data: paymentData(payment) };
}

/** A refund event's body: the refund as settled, and its payment as the refund left it. */
export function refundDeliveryBody(eventId: string, type: 'refund.succeeded' | 'refund.failed', refund: RefundFields, payment: DeliveredPayment): UndatedDeliveryBody {
  return { event: type, id: eventId, data: { ...toRefundView(refund), payment: paymentData(payment) } };
}

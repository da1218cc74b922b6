import type { PaymentStatus } from './payment-status';
import type { RefundStatus } from './refund';

/** What a real PSP reports about the Pix that paid a charge (docs/providers.md). */
export interface PixPaymentDetails {
  endToEndId: string | null;
  /** What the payer paid, as the PSP confirmed it. */
  paidAmountCents: number | null;
  /** The payer's name and document, masked by the adapter: the full document never reaches the gateway's storage. */
  payer: { name: string; documentMasked: string | null } | null;
}

/**
 * A refund as the PSP reports it, in a callback or on a charge read back: one the gateway asked for
 * (matched by `providerRefundId`) or one made outside it (the PSP's portal, a MED return).
 */
export interface RefundReport {
  /** The PSP's id of the refund: the Pix API's devolução id, Mercado Pago's refund id. */
  providerRefundId: string;
  status: RefundStatus;
  amountCents: number;
  /** Who asked for it when the gateway did not: `med` for a MED return, `psp` for anything else. */
  externalOrigin: 'psp' | 'med';
  failureReason: string | null;
  /**
   * The gateway's own refund this is, when the PSP's record names it (the Pix API's devolução id is
   * derived from it; the simulated PSP echoes it): null when the record is not one of the gateway's.
   * Absent when the PSP cannot say (Mercado Pago): a report unknown by id is then not attributed
   * while one of the gateway's refunds has no PSP id yet (RefundEventsService).
   */
  gatewayRefundId?: string | null;
}

/** Events about the payment as a whole: each moves it to one status (statusForEvent). */
export const PAYMENT_EVENT_TYPES = ['payment.confirmed', 'payment.expired', 'payment.cancelled', 'payment.failed', 'payment.refunded'] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

/** Events about one refund of a payment: they carry its RefundReport. */
export const REFUND_EVENT_TYPES = ['refund.pending', 'refund.succeeded', 'refund.failed'] as const;
export type RefundEventType = (typeof REFUND_EVENT_TYPES)[number];

/** The closed set of events the gateway understands, whatever the provider calls them. */
export const PROVIDER_EVENT_TYPES = [...PAYMENT_EVENT_TYPES, ...REFUND_EVENT_TYPES] as const;
export type ProviderEventType = (typeof PROVIDER_EVENT_TYPES)[number];

export interface ProviderEvent {
  /** The provider's event id: the deduplication key with the provider name. */
  eventId: string;
  type: ProviderEventType;
  /** `data.id`: the gateway's payment id or the provider's payment id. */
  paymentRef: string;
  /** Amount the event reports, when it reports one (a refund event: the refund's amount). */
  amountCents: number | null;
  occurredAt: Date;
  /** What the PSP confirmed about the paying Pix, kept on the payment when the event applies. */
  pix?: PixPaymentDetails;
  /** The refund a `refund.*` event is about; required for those, absent otherwise. */
  refund?: RefundReport;
}

export function isRefundEvent(type: ProviderEventType): type is RefundEventType {
  return type === 'refund.pending' || type === 'refund.succeeded' || type === 'refund.failed';
}

/** The refund event type that reports a refund in this status. */
export function refundEventType(status: RefundStatus): RefundEventType {
  switch (status) {
    case 'pending':
      return 'refund.pending';
    case 'succeeded':
      return 'refund.succeeded';
    case 'failed':
      return 'refund.failed';
  }
}

/** The status a payment event moves a payment to. */
export function statusForEvent(type: PaymentEventType): PaymentStatus {
  switch (type) {
    case 'payment.confirmed':
      return 'paid';
    case 'payment.expired':
      return 'expired';
    case 'payment.cancelled':
      return 'cancelled';
    case 'payment.failed':
      return 'failed';
    case 'payment.refunded':
      return 'refunded';
  }
}

/**
 * What merchants receive (docs/webhooks.md): the payment events, the refund outcomes, and the
 * payment's own move when a refund settles.
 */
export const MERCHANT_EVENT_TYPES = [
  'payment.confirmed',
  'payment.expired',
  'payment.cancelled',
  'payment.failed',
  'payment.partially_refunded',
  'payment.refunded',
  'payment.updated',
  'refund.succeeded',
  'refund.failed',
] as const;
export type MerchantEventType = (typeof MERCHANT_EVENT_TYPES)[number];

import type { PaymentStatus } from './payment-status';

/** What a real PSP reports about the Pix that paid a charge (docs/providers.md). */
export interface PixPaymentDetails {
  endToEndId: string | null;
  /** What the payer paid, as the PSP confirmed it. */
  paidAmountCents: number | null;
  /** The payer's name and document, masked by the adapter: the full document never reaches the gateway's storage. */
  payer: { name: string; documentMasked: string | null } | null;
}

/** The closed set of events the gateway understands, whatever the provider calls them. */
export const PROVIDER_EVENT_TYPES = ['payment.confirmed', 'payment.expired', 'payment.cancelled', 'payment.failed', 'payment.refunded'] as const;
export type ProviderEventType = (typeof PROVIDER_EVENT_TYPES)[number];

export interface ProviderEvent {
  /** The provider's event id: the deduplication key with the provider name. */
  eventId: string;
  type: ProviderEventType;
  /** `data.id`: the gateway's payment id or the provider's payment id. */
  paymentRef: string;
  /** Amount the event reports, when it reports one. */
  amountCents: number | null;
  occurredAt: Date;
  /** What the PSP confirmed about the paying Pix, kept on the payment when the event applies. */
  pix?: PixPaymentDetails;
}

/** The status an event moves a payment to. */
export function statusForEvent(type: ProviderEventType): PaymentStatus {
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

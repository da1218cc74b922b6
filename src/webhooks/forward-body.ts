import { centsToReais } from '../domain/money';
import type { PaymentStatus } from '../domain/payment-status';
import type { ProviderEventType } from '../domain/provider-event';

/** The body forwarded to the merchant (docs/api.md, Forwarding to merchants), frozen in the delivery row when the event is applied. */
export interface ForwardBody {
  event: ProviderEventType;
  /** The gateway's event id (`evt_…`), not the provider's. */
  id: string;
  created_at: string;
  data: {
    id: string;
    amount: number;
    status: PaymentStatus;
    externalId: string;
    provider: string;
    paidAt: string | null;
  };
}

export interface ForwardedPayment {
  id: string;
  amountCents: number;
  status: PaymentStatus;
  externalId: string;
  provider: string;
  paidAt: Date | null;
}

/** `payment` is the payment as the event left it. */
export function forwardBody(eventId: string, type: ProviderEventType, createdAt: Date, payment: ForwardedPayment): ForwardBody {
  return {
    event: type,
    id: eventId,
    created_at: createdAt.toISOString(),
    data: {
      id: payment.id,
      amount: centsToReais(payment.amountCents),
      status: payment.status,
      externalId: payment.externalId,
      provider: payment.provider,
      paidAt: payment.paidAt ? payment.paidAt.toISOString() : null,
    },
  };
}

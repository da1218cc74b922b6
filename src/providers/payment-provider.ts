import type { PaymentStatus } from '../payments/payment-status';

/**
 * What every provider adapter implements. One folder per provider under
 * src/providers/<name>/, registered in ProvidersModule and chosen by name through ProviderRegistry.
 * Adapters speak centavos and the gateway's statuses; each maps its own statuses with an exhaustive
 * switch. Failures of the provider are thrown as UpstreamError, never as AppError.
 */
export interface PaymentProvider {
  /** The name in URLs (`/webhooks/<name>`), in `payments.provider` and in envelopes. */
  readonly name: string;

  /**
   * Creates a Pix charge. `txid` is the upstream idempotency key: the same txid again must return the
   * same charge, never a second one (a retry after a timeout re-sends it).
   */
  createCharge(request: CreateChargeRequest): Promise<ProviderCharge>;

  /** Reads a charge back (reconciliation, and after ambiguous failures). */
  getCharge(ref: ChargeRef): Promise<ProviderCharge>;

  /** True when the webhook request carries a valid signature of this provider's scheme (constant-time). */
  verifyWebhook(request: WebhookRequest): boolean;

  /** Parses a verified webhook body into the closed internal event type; throws WebhookParseError when it is not one. */
  parseEvent(request: WebhookRequest): ProviderEvent;

  /** Cheap reachability check for health and the dashboard. */
  health(): Promise<ProviderHealth>;
}

export interface CreateChargeRequest {
  /** The gateway's payment id (`pay_…`), for the provider's records. */
  paymentId: string;
  /** Pix txid, 26–35 characters of [a-zA-Z0-9]; also the idempotency key upstream. */
  txid: string;
  amountCents: number;
  currency: 'BRL';
  description: string | null;
  externalId: string;
  /** The payer the charge is addressed to (the BCB `devedor`). */
  debtor: { document: string; name: string };
  expiresInSeconds: number;
  /** Where the provider should post events for this charge. */
  notificationUrl: string;
}

export interface ChargeRef {
  providerPaymentId: string | null;
  txid: string;
}

/** What a real PSP reports about the Pix that paid a charge (docs/providers.md). */
export interface PixPaymentDetails {
  endToEndId: string | null;
  /** What the payer paid, as the PSP confirmed it. */
  paidAmountCents: number | null;
  /** The payer's name and document, masked by the adapter: the full document never reaches the gateway's storage. */
  payer: { name: string; documentMasked: string | null } | null;
}

export interface ProviderCharge {
  /** Set by PSPs that report who paid (the Pix API family). */
  pix?: PixPaymentDetails;
  providerPaymentId: string;
  txid: string;
  status: PaymentStatus;
  amountCents: number;
  /** The BR Code ("Pix copia e cola"), EMV MPM with a correct CRC16. */
  copyPaste: string;
  expiresAt: Date | null;
  paidAt: Date | null;
}

export interface WebhookRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
  body: unknown;
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

export interface ProviderHealth {
  ok: boolean;
  latencyMs: number;
  detail?: string;
}

export type UpstreamFailureKind = 'timeout' | 'network' | 'http' | 'malformed';

export interface UpstreamErrorOptions {
  kind: UpstreamFailureKind;
  message: string;
  /** The provider's HTTP status, when it answered. */
  upstreamStatus?: number;
  /** The provider's own error code and message, when its answer carried them. */
  providerCode?: string;
  providerMessage?: string;
  /** What went wrong underneath (kept small: never the request, which carries the payer's data). */
  cause?: unknown;
}

/** The provider failed or answered something unusable. Mapped to PAYMENT_CREATE_FAILED / UPSTREAM_ERROR (502). */
export class UpstreamError extends Error {
  readonly kind: UpstreamFailureKind;
  readonly upstreamStatus?: number;
  readonly providerCode?: string;
  readonly providerMessage?: string;

  constructor(options: UpstreamErrorOptions) {
    super(options.message, 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'UpstreamError';
    this.kind = options.kind;
    this.upstreamStatus = options.upstreamStatus;
    this.providerCode = options.providerCode;
    this.providerMessage = options.providerMessage;
  }

  /**
   * Whether the provider may have acted on the request (a timeout or a 5xx after sending):
   * the caller must retry with the same txid, never a new one.
   */
  get ambiguous(): boolean {
    return this.kind === 'timeout' || this.kind === 'network' || (this.upstreamStatus ?? 0) >= 500;
  }
}

/** A webhook body that is not a well-formed event of this provider. */
export class WebhookParseError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'WebhookParseError';
  }
}

import type { DueTerms } from '../domain/due-charge';
import type { PaymentStatus } from '../domain/payment-status';
import type { PixPaymentDetails, ProviderEvent, RefundReport } from '../domain/provider-event';
import type { Account, AccountSettings, CredentialsSummary } from './account';
import type { InboundCallback, SimulatedEventRequest, SimulatedEventResult } from './callback';
import type { ProviderDescriptor } from './provider-descriptor';
import type { RecurringProvider } from './recurring';

// What the rest of the gateway imports about providers is here; the types that the Pix Automático
// port (recurring.ts) and the descriptor share with this interface live in the leaf files they
// come from, so that no two of these files import each other.
export type { Account, AccountSettings, CredentialsSummary } from './account';
export type { InboundCallback, SimulatedEventRequest, SimulatedEventResult } from './callback';
export type { AccountEnvironment } from './provider-descriptor';

/**
 * The provider interface that carries real PSPs (docs/providers.md): every call names the provider
 * account it acts for, because credentials, hosts and Pix keys belong to accounts, not to the
 * adapter. Adapters are translation plus HTTP: no database, no Nest request scope, no AppError.
 * Each maps its own statuses with an exhaustive switch, validates what the PSP answers at the edge
 * (an answer that does not parse is UpstreamError 'malformed'), and never logs credentials.
 */
export interface ProviderAdapter<C = unknown> {
  /** The name in URLs (`/webhooks/<name>/<account>`), in `payments.provider` and in envelopes. */
  readonly name: string;
  /**
   * What the provider says about itself: the catalogue (`GET /admin/api/providers`) and the
   * dashboard's forms are built from it, and its `capabilities` are the one declaration of what it
   * can do. The optional members below are present exactly when a capability says so; callers
   * check with `supports()` (capabilities.ts), never by the member's presence.
   */
  readonly descriptor: ProviderDescriptor;

  /**
   * Checks credentials for shape before anything is stored: a certificate that does not parse, a
   * key that does not match it, an expired certificate, a PKCS#12 bundle with a wrong password, a
   * missing field. Throws CredentialsError naming the field (`credentials.<field>`); never echoes
   * a secret in its message.
   */
  parseCredentials(input: unknown, settings: AccountSettings): C;

  /** What may be shown about the credentials: nothing secret (client id, certificate subject and expiry). */
  summarizeCredentials(credentials: C): CredentialsSummary;

  /**
   * Creates a charge. With `descriptor.capabilities.txid === 'gateway'` the request's txid is the
   * PSP's idempotency key: the same txid again returns the same charge, never a second one.
   */
  createCharge(account: Account<C>, request: CreateChargeRequest): Promise<ProviderCharge>;

  /** Reads a charge back (reads, reconciliation, callbacks' read-back). */
  getCharge(account: Account<C>, ref: ChargeLookup): Promise<ProviderCharge>;

  /** `cancel`: cancels a charge that is still open; answers the charge as the PSP now holds it (it may be paid). */
  cancelCharge?(account: Account<C>, ref: ChargeLookup): Promise<ProviderCharge>;

  /** `refund`: returns money of a paid charge, in full or in part (Pix: a devolução by endToEndId); getRefund reads one back. */
  refund?(account: Account<C>, request: RefundRequest): Promise<ProviderRefund>;
  getRefund?(account: Account<C>, ref: RefundLookup): Promise<ProviderRefund>;

  /** `registerWebhook`: registers `url` as where the PSP posts this account's events (Pix API: `PUT /webhook/{chave}`). */
  registerWebhook?(account: Account<C>, url: string): Promise<void>;

  /**
   * Turns a callback into the events it proves: zero (a ping), one, or many (a Pix API batch). The
   * body alone proves nothing: an adapter verifies a signature over the raw request or reads each
   * entry back from the PSP with the account's credentials, and returns only what is confirmed.
   * Throws WebhookAuthError when nothing in the callback can be confirmed (401), WebhookParseError
   * when it is not this provider's callback at all (400).
   */
  receiveCallback(account: Account<C>, request: InboundCallback): Promise<ProviderEvent[]>;

  /** Obtains a token (where the PSP has them) and makes one cheap read. */
  check(account: Account<C>): Promise<ProviderHealth>;

  /**
   * The account a merchant with no provider accounts is charged through when this provider is its
   * `provider` (or DEFAULT_PROVIDER), and that `POST /webhooks/<name>` receives for: the provider's
   * built-in configuration. Absent for real PSPs, whose credentials exist only on accounts.
   */
  builtInAccount?(): Account<C>;

  /**
   * Test PSPs only: makes `event` happen to a charge, and the PSP then sends its callback as it
   * would for a real payer. Behind the dashboard's "simulate" buttons.
   */
  simulateEvent?(account: Account<C>, ref: ChargeLookup, request: SimulatedEventRequest): Promise<SimulatedEventResult>;

  /**
   * `dueCharges`: changes a pending due-date charge (Pix API `PATCH /cobv/{txid}`): its amount and
   * terms become `change`'s; answers the charge as the PSP now holds it, with the same BR Code.
   */
  updateCharge?(account: Account<C>, ref: ChargeLookup, change: ChargeChange): Promise<ProviderCharge>;

  /**
   * `chargeBatches`: asks for many due-date charges at once (Pix API `PUT /lotecobv/{id}`), at most
   * `capabilities.chargeBatches.maxCharges` of them. The PSP answers before it has made them: each
   * charge's outcome is read back with getChargeBatch. The same `id` again is the same batch.
   */
  createChargeBatch?(account: Account<C>, batch: ChargeBatchRequest): Promise<void>;
  getChargeBatch?(account: Account<C>, id: string): Promise<ChargeBatchItem[]>;

  /**
   * `recurring`: Pix Automático (src/providers/recurring.ts). Its registerWebhook above also
   * registers the recurrences' and recurring charges' callbacks.
   */
  readonly recurring?: RecurringProvider<C>;

  /** Releases what the adapter holds (kept-alive connections per account) at shutdown. */
  close?(): void;
}

export interface ChargeLookup {
  txid: string;
  /** A due-date charge (Pix API `/cobv`) rather than an immediate one (`/cob`). */
  due?: boolean;
  providerPaymentId: string | null;
  /**
   * The gateway's payment id (`pay_…`), for a PSP that finds a charge whose id the gateway never
   * learnt by the reference the gateway gave it (Mercado Pago's `external_reference`).
   */
  paymentId?: string;
}

export interface RefundRequest {
  /** The gateway's refund id (`ref_…`): with `capabilities.txid` 'gateway', also the devolução id. */
  refundId: string;
  charge: ChargeLookup;
  /** The Pix being returned (its endToEndId), when the PSP refunds by it. */
  endToEndId: string | null;
  amountCents: number;
  reason: string | null;
}

export interface RefundLookup {
  refundId: string;
  endToEndId: string | null;
  /** Null when the answer to the refund was lost: the adapter finds it by `refundId` (what it derived the PSP's key from). */
  providerRefundId: string | null;
  /** The charge refunded, for PSPs that list refunds by payment (Mercado Pago). */
  charge?: ChargeLookup;
}

export type ProviderRefundStatus = 'pending' | 'succeeded' | 'failed';

export interface ProviderRefund {
  refundId: string;
  providerRefundId: string;
  status: ProviderRefundStatus;
  amountCents: number;
  failureReason: string | null;
}

/**
 * What went wrong at or with a provider, one code per error class below (and the core's
 * AccountUnusableError): the one mapper to API errors (src/providers/provider-errors.ts) switches on it.
 */
export enum ProviderFailureCode {
  UPSTREAM = 'UPSTREAM',
  CREDENTIALS = 'CREDENTIALS',
  WEBHOOK_UNCONFIRMED = 'WEBHOOK_UNCONFIRMED',
  WEBHOOK_MALFORMED = 'WEBHOOK_MALFORMED',
  ACCOUNT_UNUSABLE = 'ACCOUNT_UNUSABLE',
}

/** Credentials that fail their shape check: 400 VALIDATION_ERROR naming `field`. */
export class CredentialsError extends Error {
  readonly code = ProviderFailureCode.CREDENTIALS;
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'CredentialsError';
  }
}

/** A callback none of whose claims could be verified or confirmed: 401 INVALID_SIGNATURE, nothing changed. */
export class WebhookAuthError extends Error {
  readonly code = ProviderFailureCode.WEBHOOK_UNCONFIRMED;
  constructor(message: string) {
    super(message);
    this.name = 'WebhookAuthError';
  }
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
  /** The payer the charge is addressed to (the BCB `devedor`); `email` for PSPs that ask for one (Mercado Pago). */
  payer: { document: string; name: string; email?: string | null };
  expiresInSeconds: number;
  /** Where the provider should post events for this charge. */
  notificationUrl: string;
  /**
   * A due-date charge's terms (Pix API `PUT /cobv/{txid}`; only to an adapter whose descriptor
   * declares `dueCharges`): `expiresInSeconds` does not apply, the charge lasts until `due.date` +
   * `due.daysAfterDue`.
   */
  due?: DueTerms | null;
  /** The payer's address, which a due-date charge may carry (`devedor.logradouro`, `cidade`, `uf`, `cep`). */
  payerAddress?: PayerAddress | null;
}

export interface PayerAddress {
  street: string;
  city: string;
  /** The two-letter state (`uf`). */
  state: string;
  /** Eight digits (`cep`). */
  zip: string;
}

/** A due-date charge's new amount and terms (`updateCharge`). */
export interface ChargeChange {
  amountCents: number;
  due: DueTerms;
}

/** A batch of due-date charges (`createChargeBatch`). */
export interface ChargeBatchRequest {
  /** The batch's id at the PSP, chosen by the gateway (the Pix API's `/lotecobv/{id}`). */
  id: string;
  description: string;
  /** Each with `due` set. */
  charges: CreateChargeRequest[];
}

/** One charge of a batch as the PSP reports it: `created` (CRIADA), `refused` (NEGADA, with its problem) or still `processing`. */
export interface ChargeBatchItem {
  txid: string;
  outcome: 'created' | 'refused' | 'processing';
  /** Why the PSP refused it (the `problema`'s title and detail), when `refused`. */
  problem: string | null;
}

export interface ProviderCharge {
  /** Set by PSPs that report who paid (the Pix API family). */
  pix?: PixPaymentDetails;
  /**
   * Every refund the PSP holds for this charge, the gateway's and any made outside it (the PSP's
   * portal, MED returns), when its answer lists them: reconciliation records the ones it does not know.
   */
  refunds?: RefundReport[];
  providerPaymentId: string;
  txid: string;
  status: PaymentStatus;
  amountCents: number;
  /** The BR Code ("Pix copia e cola"), EMV MPM with a correct CRC16. */
  copyPaste: string;
  expiresAt: Date | null;
  paidAt: Date | null;
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
  /** A `network` failure before any of the request reached the PSP (refused, DNS, TLS): it cannot have acted on it. */
  beforeSending?: boolean;
}

/** The provider failed or answered something unusable. Mapped to PAYMENT_CREATE_FAILED / UPSTREAM_ERROR (502). */
export class UpstreamError extends Error {
  readonly code = ProviderFailureCode.UPSTREAM;
  readonly kind: UpstreamFailureKind;
  readonly upstreamStatus?: number;
  readonly providerCode?: string;
  readonly providerMessage?: string;
  readonly beforeSending: boolean;

  constructor(options: UpstreamErrorOptions) {
    super(options.message, 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'UpstreamError';
    this.kind = options.kind;
    this.upstreamStatus = options.upstreamStatus;
    this.providerCode = options.providerCode;
    this.providerMessage = options.providerMessage;
    this.beforeSending = options.beforeSending ?? false;
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
  readonly code = ProviderFailureCode.WEBHOOK_MALFORMED;
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'WebhookParseError';
  }
}

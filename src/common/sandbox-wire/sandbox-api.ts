import type { SandboxAddressWire, SandboxDueTermsWire } from './sandbox-due-api';

/**
 * The sandbox PSP's wire format (its HTTP API is fixed: the server in src/sandbox-psp speaks it, the
 * adapter in src/providers/sandbox calls it). Kept in one file, below both, so the two cannot drift apart.
 */

/** The sandbox's own charge statuses, Portuguese like the BCB Pix API. */
export const SANDBOX_STATUSES = ['ATIVA', 'CONCLUIDA', 'EXPIRADA', 'CANCELADA', 'FALHOU', 'DEVOLVIDA'] as const;
export type SandboxChargeStatus = (typeof SANDBOX_STATUSES)[number];

export function isSandboxStatus(value: unknown): value is SandboxChargeStatus {
  return typeof value === 'string' && (SANDBOX_STATUSES as readonly string[]).includes(value);
}

/** Body of `POST /charges`. Amounts are decimal strings with two places, like BCB. */
export interface SandboxCreateChargeBody {
  txid: string;
  amount: string;
  currency: 'BRL';
  description: string | null;
  externalId: string;
  /**
   * Who the charge is addressed to: the gateway's `recipient` (the BCB's `devedor`), named as the
   * merchant's API names it so that one word means one thing across the docs.
   */
  recipient: SandboxPersonWire;
  /** Seconds the charge stays payable; required, but for a due-date charge, which lasts until its last payable day. */
  expiresIn?: number;
  /** A due-date charge's terms (docs/sandbox.md, Due-date charges); absent for an immediate charge. */
  due?: SandboxDueTermsWire;
  /** The payer's address, which a due-date charge may carry. */
  recipientAddress?: SandboxAddressWire;
  notificationUrl: string;
  /**
   * The secret to sign this charge's events with (a stored sandbox account's); without it, the one
   * the sandbox was started with. A real PSP holds it per account; the simulator takes it per charge.
   */
  webhookSecret?: string;
}

/** A person on the wire: a CPF (11 digits) or CNPJ (14 characters), unpunctuated, and a name. */
export interface SandboxPersonWire {
  document: string;
  name: string;
}

/**
 * The Pix that paid a charge, as the BCB's Pix API reports one (`endToEndId`, `valor`, `pagador`):
 * the payer's document is whole on the wire, as a PSP sends it; the adapter masks it before the
 * gateway keeps it.
 */
export interface SandboxPixWire {
  /** The BCB's format: `E`, the payer's institution (8 digits, an ISPB), `yyyyMMddHHmm` (UTC), 11 letters or digits. */
  endToEndId: string;
  /** What the payer paid, a two-place decimal string. */
  amount: string;
  payer: SandboxPersonWire;
  paidAt: string;
}

export interface SandboxChargeWire {
  id: string;
  txid: string;
  status: SandboxChargeStatus;
  amount: string;
  currency: 'BRL';
  description: string | null;
  externalId: string;
  recipient: SandboxPersonWire;
  /** The BR Code; its field 62-05 carries the charge's txid. */
  pixCopiaECola: string;
  notificationUrl: string;
  createdAt: string;
  expiresAt: string;
  paidAt: string | null;
  /** The Pix that paid the charge, once one did (the BCB's `pix[]`, one entry); null before. */
  pix: SandboxPixWire | null;
  /** A due-date charge's terms, as created or last changed; absent for an immediate charge. */
  due?: SandboxDueTermsWire;
  /**
   * A due-date charge's amount a payer owes paying today in Brasília (on the sandbox's clock), by the
   * gateway's own calculator; past the last payable day, what was owed on it.
   */
  amountDue?: string;
  recipientAddress?: SandboxAddressWire;
  /** The batch a due-date charge was made in. */
  batchId?: string;
  /**
   * The charge's refunds, oldest first, present once it has any (as the BCB's `pix[].devolucoes`):
   * those the gateway asked for and those made outside it.
   */
  refunds?: SandboxRefundWire[];
}

/** A refund's statuses, the BCB's devolução statuses. */
export const SANDBOX_REFUND_STATUSES = ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'] as const;
export type SandboxRefundStatus = (typeof SANDBOX_REFUND_STATUSES)[number];

export function isSandboxRefundStatus(value: unknown): value is SandboxRefundStatus {
  return typeof value === 'string' && (SANDBOX_REFUND_STATUSES as readonly string[]).includes(value);
}

/** Who asked for a refund: the API (the gateway), the PSP's portal, or a MED return. */
export const SANDBOX_REFUND_ORIGINS = ['api', 'portal', 'med'] as const;
export type SandboxRefundOrigin = (typeof SANDBOX_REFUND_ORIGINS)[number];

export function isSandboxRefundOrigin(value: unknown): value is SandboxRefundOrigin {
  return typeof value === 'string' && (SANDBOX_REFUND_ORIGINS as readonly string[]).includes(value);
}

/** Body of `PUT /charges/:id/refunds/:refundId` (the refund id is the client's: the same id again is the same refund). */
export interface SandboxRefundBody {
  amount: string;
  reason?: string | null;
}

export interface SandboxRefundWire {
  /** The sandbox's id (`sbxr_…`). */
  id: string;
  /** The client's id it was asked for with; null for a refund made outside the API. */
  refundId: string | null;
  chargeId: string;
  txid: string;
  amount: string;
  status: SandboxRefundStatus;
  origin: SandboxRefundOrigin;
  reason: string | null;
  failureReason: string | null;
  createdAt: string;
  settledAt: string | null;
}

/** Body of `POST /_control/refunds/:id/settle`: how a refund in process ends (without a status: as its reason's marker says). */
export interface SandboxSettleBody {
  status?: Exclude<SandboxRefundStatus, 'EM_PROCESSAMENTO'>;
  failureReason?: string;
}

/** Body of `POST /_control/charges/:id/refunds`: money going back without the API asking. */
export interface SandboxOutsideRefundBody {
  amount?: string;
  origin: Exclude<SandboxRefundOrigin, 'api'>;
}

/** Markers in a refund's `reason` that choose its outcome (docs/sandbox.md, Refunds). */
export const SANDBOX_FAIL_MARKER = 'sandbox:fail';
export const SANDBOX_HOLD_MARKER = 'sandbox:hold';

export const SANDBOX_EVENTS = ['payment.confirmed', 'payment.expired', 'payment.cancelled', 'payment.failed', 'payment.refunded'] as const;
export type SandboxEventType = (typeof SANDBOX_EVENTS)[number];

/** The status a simulated event leaves the charge in. */
export function statusAfterEvent(event: SandboxEventType): SandboxChargeStatus {
  switch (event) {
    case 'payment.confirmed':
      return 'CONCLUIDA';
    case 'payment.expired':
      return 'EXPIRADA';
    case 'payment.cancelled':
      return 'CANCELADA';
    case 'payment.failed':
      return 'FALHOU';
    case 'payment.refunded':
      return 'DEVOLVIDA';
  }
}

/** What the sandbox posts to a charge's notificationUrl (data.amount is a JSON number in reais, as the gateway's intake expects). */
export interface SandboxEventBody {
  event: SandboxEventType;
  id: string;
  created_at: string;
  /** `pix`: on `payment.confirmed`, the Pix that paid (as on the charge). */
  data: { id: string; txid: string; amount: number; status: SandboxChargeStatus; pix?: SandboxPixWire };
}

/** The refund events the sandbox posts when a refund settles (`data.amount`: the refund's amount). */
export const SANDBOX_REFUND_EVENTS = ['refund.succeeded', 'refund.failed'] as const;
export type SandboxRefundEventType = (typeof SANDBOX_REFUND_EVENTS)[number];

export interface SandboxRefundEventBody {
  event: SandboxRefundEventType;
  /** Stable per refund and status: the same report posted twice has the same id. */
  id: string;
  created_at: string;
  data: { id: string; txid: string; amount: number; status: SandboxChargeStatus; refund: SandboxRefundWire };
}

/** Failures `POST /_control/failures` can queue. */
export const SANDBOX_FAILURE_MODES = ['timeout', 'http_500', 'http_503', 'http_400', 'http_422', 'malformed', 'reset'] as const;
export type SandboxFailureMode = (typeof SANDBOX_FAILURE_MODES)[number];
export const SANDBOX_FAILURE_OPERATIONS = ['create', 'get', 'refund', 'cancel', 'update', 'batch', 'any'] as const;
export type SandboxFailureOperation = (typeof SANDBOX_FAILURE_OPERATIONS)[number];

/** Error bodies of the sandbox: `{error:{code, message, field?}}`. */
export interface SandboxErrorBody {
  error: { code: string; message: string; field?: string };
}

export { wireAmountToCents } from './wire-amount';

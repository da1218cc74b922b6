/**
 * The sandbox PSP's wire format (its HTTP API is fixed: the server in ./server speaks it, the adapter
 * calls it). Kept in one file so the two cannot drift apart.
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
  debtor: { document: string; name: string };
  /** Seconds the charge stays payable. */
  expiresIn: number;
  notificationUrl: string;
  /**
   * The secret to sign this charge's events with (a stored sandbox account's); without it, the one
   * the sandbox was started with. A real PSP holds it per account; the simulator takes it per charge.
   */
  webhookSecret?: string;
}

export interface SandboxChargeWire {
  id: string;
  txid: string;
  status: SandboxChargeStatus;
  amount: string;
  currency: 'BRL';
  description: string | null;
  externalId: string;
  debtor: { document: string; name: string };
  pixCopiaECola: string;
  notificationUrl: string;
  createdAt: string;
  expiresAt: string;
  paidAt: string | null;
}

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
  data: { id: string; txid: string; amount: number; status: SandboxChargeStatus };
}

/** Failures `POST /_control/failures` can queue. */
export const SANDBOX_FAILURE_MODES = ['timeout', 'http_500', 'http_503', 'http_400', 'http_422', 'malformed', 'reset'] as const;
export type SandboxFailureMode = (typeof SANDBOX_FAILURE_MODES)[number];
export const SANDBOX_FAILURE_OPERATIONS = ['create', 'get', 'any'] as const;
export type SandboxFailureOperation = (typeof SANDBOX_FAILURE_OPERATIONS)[number];

/** Error bodies of the sandbox: `{error:{code, message, field?}}`. */
export interface SandboxErrorBody {
  error: { code: string; message: string; field?: string };
}

const DECIMAL_AMOUNT = /^(\d{1,10})\.(\d{2})$/;

/** Centavos for a wire amount ("10.50"), or undefined when it is not a two-place decimal. */
export function wireAmountToCents(amount: string): number | undefined {
  const match = DECIMAL_AMOUNT.exec(amount);
  return match ? Number(match[1]) * 100 + Number(match[2]) : undefined;
}

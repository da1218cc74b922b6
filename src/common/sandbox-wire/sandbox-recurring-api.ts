/**
 * The sandbox PSP's wire format for Pix Automático (docs/sandbox.md, Recurrences): the server in
 * src/sandbox-psp speaks it, the adapter (src/providers/sandbox/sandbox.recurring.ts) calls it. Its
 * routes and bodies are the sandbox's own; statuses borrow the names of the BCB's Pix API 2.9.0
 * (`RecStatus`, `CobRStatus`, the status of a CobR's `tentativas`,
 * `encerramento.cancelamento.solicitante`):
 * https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml
 */
import type { Frequency, Journey, LeadTime, RetryPolicy } from '../../domain/recurrence';
import type { SandboxPersonWire } from './sandbox-api';

/**
 * How far ahead of its due date a charge must reach the sandbox: the Central Bank's Pix Automático
 * rule that a charge reaches the payer's bank 2 to 10 days before it is due (docs/sandbox.md,
 * Recurrences), kept so that merchants meet it before going live.
 */
export const SANDBOX_LEAD_TIME: LeadTime = { minDays: 2, maxDays: 10 };

/** A recurrence: created waiting for the payer (`CRIADA`), then authorized, rejected, expired or cancelled. */
export const SANDBOX_RECURRENCE_STATUSES = ['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const;
export type SandboxRecurrenceStatus = (typeof SANDBOX_RECURRENCE_STATUSES)[number];

/**
 * A recurring charge: `ATIVA` while the PSP holds it open (its attempt scheduled, or failed with a
 * retry still possible), then paid, rejected (failed for good), expired or cancelled. The sandbox
 * makes charges `ATIVA` at once, without the API's `CRIADA` step (the payer's PSP accepting it).
 */
export const SANDBOX_RECURRING_CHARGE_STATUSES = ['ATIVA', 'CONCLUIDA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const;
export type SandboxRecurringChargeStatus = (typeof SANDBOX_RECURRING_CHARGE_STATUSES)[number];

/** One settlement attempt: scheduled for its date, then paid, rejected or cancelled. */
export const SANDBOX_ATTEMPT_STATUSES = ['AGENDADA', 'PAGA', 'REJEITADA', 'CANCELADA'] as const;
export type SandboxAttemptStatus = (typeof SANDBOX_ATTEMPT_STATUSES)[number];

/** Who cancelled a recurrence (the API's `solicitante`); the sandbox's own cancels are the receiver's or the payer's. */
export const SANDBOX_CANCELLERS = ['USUARIO_RECEBEDOR', 'USUARIO_PAGADOR', 'PSP_RECEBEDOR', 'PSP_PAGADOR'] as const;
export type SandboxCanceller = (typeof SANDBOX_CANCELLERS)[number];

export const isOneOf =
  <T extends string>(values: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (values as readonly string[]).includes(value);

export const isSandboxRecurrenceStatus = isOneOf(SANDBOX_RECURRENCE_STATUSES);
export const isSandboxRecurringChargeStatus = isOneOf(SANDBOX_RECURRING_CHARGE_STATUSES);
export const isSandboxAttemptStatus = isOneOf(SANDBOX_ATTEMPT_STATUSES);
export const isSandboxCanceller = isOneOf(SANDBOX_CANCELLERS);

/** The payer's account a `request` journey asks (the API's `destinatario` of `/solicrec`). */
export interface SandboxPayerAccountWire {
  ispbParticipante: string;
  agencia?: string;
  conta: string;
  cidadeCodigo?: string;
}

/** Body of `POST /recurrences`; the `Idempotency-Key` header must equal `recurrenceId`. */
export interface SandboxCreateRecurrenceBody {
  /** The client's id (the gateway's `rec_…`): the same id again is the same recurrence. */
  recurrenceId: string;
  contract: { id: string; description: string | null };
  debtor: SandboxPersonWire;
  frequency: Frequency;
  /** Exactly one of the two: a fixed amount, or the floor of a variable one (two-place decimal strings). */
  amount: string | null;
  minimumAmount: string | null;
  startDate: string;
  endDate: string | null;
  retryPolicy: RetryPolicy;
  journey: Journey;
  /**
   * The txid of a sandbox charge (`POST /charges`) the composite QR also pays: an immediate charge for
   * `qr_with_first_payment`, a due-date charge (with `due`) for `qr_with_due_payment`.
   */
  firstPaymentTxid: string | null;
  /** `request`: whom the payer's bank is. */
  payerAccount: SandboxPayerAccountWire | null;
  /** Seconds the payer has to authorize. */
  expiresIn: number;
  /** Callbacks go to `<it>/rec` and, for its charges, `<it>/cobr`. */
  notificationUrl: string;
  /** As a charge's: the secret to sign this recurrence's (and its charges') callbacks with. */
  webhookSecret?: string;
}

export interface SandboxRecurrenceWire {
  /** The sandbox's id (`sbxrec_…`). */
  id: string;
  recurrenceId: string;
  status: SandboxRecurrenceStatus;
  contract: { id: string; description: string | null };
  debtor: SandboxPersonWire;
  frequency: Frequency;
  amount: string | null;
  minimumAmount: string | null;
  startDate: string;
  endDate: string | null;
  retryPolicy: RetryPolicy;
  journey: Journey;
  firstPaymentTxid: string | null;
  payerAccount: SandboxPayerAccountWire | null;
  /** The authorization BR Code, for the QR journeys while the payer may still authorize; null otherwise. */
  pixCopiaECola: string | null;
  notificationUrl: string;
  createdAt: string;
  /** Until when the payer may authorize. */
  expiresAt: string;
  /** The last status change. */
  updatedAt: string;
  cancelledBy: SandboxCanceller | null;
}

/** Body of `PUT /recurring-charges/:txid` (the txid is the client's: the same txid again is the same charge). */
export interface SandboxCreateRecurringChargeBody {
  /** The recurrence, by the sandbox's id (or the client's). */
  recurrenceId: string;
  dueDate: string;
  amount: string;
  description: string | null;
  receiverAccount: { agencia: string; conta: string; tipoConta: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO' };
  notificationUrl: string;
  webhookSecret?: string;
}

export interface SandboxAttemptWire {
  /** The settlement date asked for. */
  date: string;
  status: SandboxAttemptStatus;
  endToEndId: string | null;
  /** Why it was rejected, when it was. */
  failureReason: string | null;
  updatedAt: string;
}

export interface SandboxRecurringChargeWire {
  txid: string;
  /** The sandbox's recurrence id (`sbxrec_…`). */
  recurrenceId: string;
  status: SandboxRecurringChargeStatus;
  amount: string;
  dueDate: string;
  description: string | null;
  receiverAccount: SandboxCreateRecurringChargeBody['receiverAccount'];
  /** Oldest first: the first on the due date, then each retry. */
  attempts: SandboxAttemptWire[];
  endToEndId: string | null;
  paidAt: string | null;
  failureReason: string | null;
  notificationUrl: string;
  createdAt: string;
  updatedAt: string;
}

export const SANDBOX_RECURRENCE_ACTIONS = ['authorize', 'reject', 'expire', 'payer_cancel'] as const;
export const SANDBOX_RECURRING_CHARGE_ACTIONS = ['settle', 'fail'] as const;

/** Body of `POST /recurrences/:id/simulate`. */
export interface SandboxRecurrenceSimulateBody {
  action: (typeof SANDBOX_RECURRENCE_ACTIONS)[number];
}

/** Body of `POST /recurring-charges/:txid/simulate`; `reason` is the failed attempt's. */
export interface SandboxRecurringChargeSimulateBody {
  action: (typeof SANDBOX_RECURRING_CHARGE_ACTIONS)[number];
  reason?: string;
}

/** What the sandbox posts to `<notificationUrl>/rec`: the recurrences that changed, to be read back. */
export interface SandboxRecurrenceCallbackBody {
  id: string;
  recurrences: { id: string; status: SandboxRecurrenceStatus; updatedAt: string }[];
}

/** What it posts to `<notificationUrl>/cobr`: the charges that changed, to be read back. */
export interface SandboxRecurringChargeCallbackBody {
  id: string;
  recurringCharges: { txid: string; recurrenceId: string; status: SandboxRecurringChargeStatus; updatedAt: string }[];
}

/** What a simulation answers (202): the callback's id, whether it was delivered, and the subject as it now stands. */
export interface SandboxRecurringSimulateAnswer {
  eventId: string;
  delivered: boolean;
  status: number | null;
  recurrence?: SandboxRecurrenceWire;
  recurringCharge?: SandboxRecurringChargeWire;
}

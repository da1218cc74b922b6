import type { AttemptStatus, Canceller, Frequency, Journey, RecurrenceStatus, RecurringChargeStatus, RetryPolicy } from '../domain/recurrence';
import type { Account } from './account';
import type { InboundCallback, SimulatedEventResult } from './callback';

/**
 * Pix Automático at a PSP (docs/recurrences.md): what an adapter whose provider offers it implements
 * as `ProviderAdapter.recurring`. Same rules as the rest of the adapter: every call names the
 * account, statuses map through exhaustive switches, answers are validated at the edge, failures
 * are the provider-adapter.ts errors (a PSP's refusal of a date is UpstreamError with its status
 * 400 and the PSP's code; the core turns it into 400 naming `dueDate`).
 */
export interface RecurringProvider<C = unknown> {
  /**
   * Creates the recurrence and, for the QR journeys, its location, so the answer carries the
   * authorization BR Code (the Pix API: `POST /locrec`, `POST /rec`, `PATCH /rec/{idRec}` with the
   * loc, `GET /rec/{idRec}` for `dadosQR.pixCopiaECola`, with `?txid=` of the first payment for
   * the composite QR: its immediate charge (`PUT /cob/{txid}`) for `qr_with_first_payment`, its
   * due-date charge (`PUT /cobv/{txid}`) for `qr_with_due_payment`, both made by the core first; for
   * `request`, `POST /solicrec`). Idempotent by `recurrenceId` where the PSP allows it (a retry after a lost answer
   * finds the recurrence by `contract.id` and the payer rather than making a second one).
   */
  createRecurrence(account: Account<C>, request: CreateRecurrenceRequest): Promise<ProviderRecurrence>;

  /** Reads a recurrence back (`GET /rec/{idRec}`): reconciliation and callbacks' read-back. */
  getRecurrence(account: Account<C>, ref: RecurrenceLookup): Promise<ProviderRecurrence>;

  /** Cancels it (`PATCH /rec/{idRec}` `{"status":"CANCELADA"}`); answers it as the PSP now holds it. */
  cancelRecurrence(account: Account<C>, ref: RecurrenceLookup): Promise<ProviderRecurrence>;

  /** Creates one cycle's charge (`PUT /cobr/{txid}`, the gateway's txid being the key upstream). */
  createCharge(account: Account<C>, request: CreateRecurringChargeRequest): Promise<ProviderRecurringCharge>;

  /** Reads a charge back (`GET /cobr/{txid}`). */
  getCharge(account: Account<C>, ref: RecurringChargeLookup): Promise<ProviderRecurringCharge>;

  /** Cancels a charge before its first attempt (`PATCH /cobr/{txid}` `{"status":"CANCELADA"}`). */
  cancelCharge(account: Account<C>, ref: RecurringChargeLookup): Promise<ProviderRecurringCharge>;

  /** Asks for a new attempt on `date` (`POST /cobr/{txid}/retentativa/{data}`). */
  retryCharge(account: Account<C>, ref: RecurringChargeLookup, date: string): Promise<ProviderRecurringCharge>;

  /**
   * A callback at `<webhook url>/rec` (`{"recs":[…]}`) or `<webhook url>/cobr` (`{"cobsr":[…]}`):
   * each entry read back from the PSP before it is believed, as receiveCallback does for Pix. Throws
   * WebhookAuthError when none is confirmed, WebhookParseError when the body is not such a callback.
   */
  receiveCallback(account: Account<C>, request: InboundCallback): Promise<RecurringReport[]>;

  /**
   * Test PSPs only: makes something happen to a recurrence or a charge as a payer or the payer's
   * bank would, and the PSP then posts its callback. Behind the dashboard's simulate buttons.
   */
  simulate?(account: Account<C>, request: RecurringSimulation): Promise<SimulatedEventResult>;
}

export const RECURRENCE_SIMULATIONS = ['authorize', 'reject', 'expire', 'payer_cancel'] as const;
export type RecurrenceSimulation = (typeof RECURRENCE_SIMULATIONS)[number];
/** `settle` and `fail` act on the charge's current attempt (the first, or the retry last asked for). */
export const CHARGE_SIMULATIONS = ['settle', 'fail'] as const;
export type ChargeSimulation = (typeof CHARGE_SIMULATIONS)[number];

export type RecurringSimulation =
  { subject: 'recurrence'; ref: RecurrenceLookup; action: RecurrenceSimulation } | { subject: 'charge'; ref: RecurringChargeLookup; action: ChargeSimulation };

/** The PSP's `recebedor` of every charge: where recurring charges settle. Not secret. */
export interface ReceiverAccount {
  agencia: string;
  conta: string;
  tipoConta: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';
}

/** The payer's account for the `request` journey (the Pix API's `destinatario` of `/solicrec`). */
export interface PayerAccount {
  /** The payer's bank, by its ISPB (8 digits). */
  ispbParticipante: string;
  agencia?: string;
  conta: string;
  /** Municipality code (IBGE, 7 digits) the API asks for. */
  cidadeCodigo?: string;
}

export interface CreateRecurrenceRequest {
  /** The gateway's id (`rec_…`). */
  recurrenceId: string;
  contract: { id: string; description: string | null };
  payer: { document: string; name: string };
  frequency: Frequency;
  /** Exactly one of the two is set: a fixed amount, or the floor of a variable one. */
  amountCents: number | null;
  minimumAmountCents: number | null;
  startDate: string;
  endDate: string | null;
  retryPolicy: RetryPolicy;
  journey: Journey;
  /**
   * The charge, already created, that the composite QR also pays: immediate for
   * `qr_with_first_payment`, with a due date for `qr_with_due_payment`; null for the other journeys.
   */
  firstPayment: { txid: string } | null;
  /** `request`: whom the PSP asks. */
  payerAccount: PayerAccount | null;
  /** How long the payer has to authorize (the solicitation's or the QR's validity). */
  expiresInSeconds: number;
  /**
   * The account's callback base (`<public url>/webhooks/<provider>[/<account>]`), for PSPs told per
   * recurrence rather than per account (the simulated PSP): they post to `<it>/rec` and `<it>/cobr`.
   */
  notificationUrl: string;
}

export interface RecurrenceLookup {
  /** The PSP's id (the Pix API's `idRec`). */
  providerRecurrenceId: string;
  /** For the composite QR (`GET /rec/{idRec}?txid=`): the first payment's txid. */
  firstPaymentTxid?: string | null;
}

export interface ProviderRecurrence {
  providerRecurrenceId: string;
  status: RecurrenceStatus;
  /** Who ended it, when cancelled (the API's `encerramento.cancelamento.solicitante`). */
  cancelledBy: Canceller | null;
  /** The authorization BR Code (`dadosQR.pixCopiaECola`), for the QR journeys while it can be scanned. */
  copyPaste: string | null;
  /** Until when the payer can authorize, when the PSP says. */
  authorizationExpiresAt: Date | null;
  /** The PSP's last status change (`atualizacao`), used to tell reports apart. */
  updatedAt: Date | null;
}

export interface CreateRecurringChargeRequest {
  /** The gateway's id (`rch_…`). */
  chargeId: string;
  /** 26–35 of [a-zA-Z0-9]: the idempotency key upstream. */
  txid: string;
  providerRecurrenceId: string;
  dueDate: string;
  amountCents: number;
  description: string | null;
  receiverAccount: ReceiverAccount;
  /** As CreateRecurrenceRequest's. */
  notificationUrl: string;
}

export interface RecurringChargeLookup {
  txid: string;
}

export interface ProviderAttempt {
  /** The settlement date asked for (`dataLiquidacao`). */
  date: string;
  status: AttemptStatus;
  endToEndId: string | null;
  /** Why it failed (the API's rejection code and text), when it did. */
  reason: string | null;
}

export interface ProviderRecurringCharge {
  txid: string;
  providerRecurrenceId: string;
  /**
   * The charge as a whole: `scheduled` while an attempt may still settle it; `failed` when the
   * last attempt failed, whether or not the PSP still holds the charge `open` (the core decides
   * whether to ask for a retry); never `retrying`, which is the core's.
   */
  status: Exclude<RecurringChargeStatus, 'retrying'>;
  /**
   * Whether the PSP still holds the charge open (the Pix API's CobR `CRIADA` or `ATIVA`), so that
   * after a failed attempt a retry may still be asked for; false once the PSP has closed it
   * (`REJEITADA`, `EXPIRADA`, `CANCELADA`, `CONCLUIDA`).
   */
  open: boolean;
  amountCents: number;
  dueDate: string;
  attempts: ProviderAttempt[];
  endToEndId: string | null;
  paidAt: Date | null;
  failureReason: string | null;
  updatedAt: Date | null;
}

/** One confirmed entry of a recurring callback, as read back from the PSP. */
export type RecurringReport = { kind: 'recurrence'; eventId: string; recurrence: ProviderRecurrence } | { kind: 'charge'; eventId: string; charge: ProviderRecurringCharge };

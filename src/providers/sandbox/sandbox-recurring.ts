import type { AttemptStatus, Canceller, RecurrenceStatus } from '../../domain/recurrence';
import { isCalendarDate } from '../../domain/recurrence';
import { centsToDecimalString } from '../../domain/money';
import { type Account, type InboundWebhook, type SimulatedEventResult, UpstreamError, WebhookAuthError, WebhookParseError } from '../provider-adapter';
import type {
  CreateRecurrenceRequest,
  CreateRecurringChargeRequest,
  ProviderAttempt,
  ProviderRecurrence,
  ProviderRecurringCharge,
  RecurrenceLookup,
  RecurringChargeLookup,
  RecurringNews,
  RecurringProvider,
  RecurringSimulation,
} from '../recurring';
import { jsonOf } from '../shared/answers';
import type { OutboundAnswer } from '../transport/transport';
import { wireAmountToCents } from '../../common/sandbox-wire/sandbox-api';
import { header, optionalDate, type SandboxCall, type SandboxRecurringOperation, unexpectedStatus } from './sandbox-http';
import {
  isSandboxAttemptStatus,
  isSandboxCanceller,
  isSandboxRecurrenceStatus,
  isSandboxRecurringChargeStatus,
  type SandboxAttemptStatus,
  type SandboxCanceller,
  type SandboxCreateRecurrenceBody,
  type SandboxCreateRecurringChargeBody,
  type SandboxRecurrenceStatus,
  type SandboxRecurringChargeStatus,
} from '../../common/sandbox-wire/sandbox-recurring-api';
import { SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from '../../common/sandbox-wire/sandbox-signature';
import type { SandboxCredentials } from './sandbox.adapter';

/** At most this many entries in one callback are read back; a longer list is not the sandbox's. */
const MAX_CALLBACK_ENTRIES = 100;

export interface SandboxRecurringOptions {
  isProduction: boolean;
  /**
   * The secret to have this account's recurrences and charges signed with, sent with each creation
   * as the adapter's createCharge does: a stored account's own; undefined for the built-in account,
   * whose are signed with the secret the sandbox was mounted with.
   */
  webhookSecretFor(account: Account<SandboxCredentials>): string | undefined;
}

/** The sandbox's recurrence statuses in the gateway's terms. Exhaustive. */
export function sandboxRecurrenceStatus(status: SandboxRecurrenceStatus): RecurrenceStatus {
  switch (status) {
    case 'CRIADA':
      return 'pending_authorization';
    case 'APROVADA':
      return 'active';
    case 'REJEITADA':
      return 'rejected';
    case 'EXPIRADA':
      return 'expired';
    case 'CANCELADA':
      return 'cancelled';
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped sandbox recurrence status ${String(unmapped)}` });
    }
  }
}

/** Who cancelled, in the gateway's terms: the receiver is the merchant, either PSP is a PSP. Exhaustive. */
export function sandboxCanceller(canceller: SandboxCanceller): Canceller {
  switch (canceller) {
    case 'USUARIO_RECEBEDOR':
      return 'merchant';
    case 'USUARIO_PAGADOR':
      return 'payer';
    case 'PSP_RECEBEDOR':
    case 'PSP_PAGADOR':
      return 'psp';
    default: {
      const unmapped: never = canceller;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped sandbox canceller ${String(unmapped)}` });
    }
  }
}

/** An attempt's status in the gateway's terms. Exhaustive. */
export function sandboxAttemptStatus(status: SandboxAttemptStatus): AttemptStatus {
  switch (status) {
    case 'AGENDADA':
      return 'scheduled';
    case 'PAGA':
      return 'paid';
    case 'REJEITADA':
      return 'failed';
    case 'CANCELADA':
      return 'cancelled';
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped sandbox attempt status ${String(unmapped)}` });
    }
  }
}

/**
 * A charge's status as the port states it (src/providers/recurring.ts): an open charge whose last
 * attempt failed is `failed` yet still `open` (a retry may be asked for); any other open one is
 * `scheduled`. Exhaustive.
 */
export function sandboxChargeStatus(status: SandboxRecurringChargeStatus, lastAttempt: SandboxAttemptStatus | undefined): Pick<ProviderRecurringCharge, 'status' | 'open'> {
  switch (status) {
    case 'ATIVA':
      return { status: lastAttempt === 'REJEITADA' ? 'failed' : 'scheduled', open: true };
    case 'CONCLUIDA':
      return { status: 'paid', open: false };
    case 'REJEITADA':
      return { status: 'failed', open: false };
    case 'EXPIRADA':
      return { status: 'expired', open: false };
    case 'CANCELADA':
      return { status: 'cancelled', open: false };
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped sandbox recurring charge status ${String(unmapped)}` });
    }
  }
}

/**
 * Pix Automático through the sandbox PSP (docs/sandbox.md, Recurrences): SandboxAdapter.recurring.
 * Same rules as the adapter's payments: every call goes to the gateway's simulated PSP, answers are
 * validated here, refusals are UpstreamError `http` with the sandbox's status and code (a due date
 * outside the lead time: 400 `DUE_DATE_REFUSED`).
 */
export class SandboxRecurring implements RecurringProvider<SandboxCredentials> {
  constructor(
    private readonly call: SandboxCall,
    private readonly options: SandboxRecurringOptions,
  ) {}

  async createRecurrence(account: Account<SandboxCredentials>, request: CreateRecurrenceRequest): Promise<ProviderRecurrence> {
    const secret = this.options.webhookSecretFor(account);
    const body: SandboxCreateRecurrenceBody = {
      recurrenceId: request.recurrenceId,
      contract: request.contract,
      debtor: { document: request.payer.document, name: request.payer.name },
      frequency: request.frequency,
      amount: request.amountCents === null ? null : centsToDecimalString(request.amountCents),
      minimumAmount: request.minimumAmountCents === null ? null : centsToDecimalString(request.minimumAmountCents),
      startDate: request.startDate,
      endDate: request.endDate,
      retryPolicy: request.retryPolicy,
      journey: request.journey,
      firstPaymentTxid: request.firstPayment?.txid ?? null,
      payerAccount: request.payerAccount,
      expiresIn: request.expiresInSeconds,
      notificationUrl: request.notificationUrl,
      ...(secret ? { webhookSecret: secret } : {}),
    };
    // The gateway's id is the key: a retry after a lost answer gets the same recurrence (200).
    const response = await this.call('create recurrence', 'POST', '/recurrences', body, { 'idempotency-key': request.recurrenceId });
    if (response.status !== 200 && response.status !== 201) throw unexpectedStatus('create recurrence', response);
    return toRecurrence(response, 'create recurrence');
  }

  async getRecurrence(_account: Account<SandboxCredentials>, ref: RecurrenceLookup): Promise<ProviderRecurrence> {
    const response = await this.call('get recurrence', 'GET', `/recurrences/${encodeURIComponent(ref.providerRecurrenceId)}`);
    if (response.status !== 200) throw unexpectedStatus('get recurrence', response);
    return toRecurrence(response, 'get recurrence');
  }

  async cancelRecurrence(_account: Account<SandboxCredentials>, ref: RecurrenceLookup): Promise<ProviderRecurrence> {
    const response = await this.call('cancel recurrence', 'POST', `/recurrences/${encodeURIComponent(ref.providerRecurrenceId)}/cancel`, {});
    if (response.status !== 200) throw unexpectedStatus('cancel recurrence', response);
    return toRecurrence(response, 'cancel recurrence');
  }

  async createCharge(account: Account<SandboxCredentials>, request: CreateRecurringChargeRequest): Promise<ProviderRecurringCharge> {
    const secret = this.options.webhookSecretFor(account);
    const body: SandboxCreateRecurringChargeBody = {
      recurrenceId: request.providerRecurrenceId,
      dueDate: request.dueDate,
      amount: centsToDecimalString(request.amountCents),
      description: request.description,
      receiverAccount: request.receiverAccount,
      notificationUrl: request.notificationUrl,
      ...(secret ? { webhookSecret: secret } : {}),
    };
    const response = await this.call('create recurring charge', 'PUT', `/recurring-charges/${encodeURIComponent(request.txid)}`, body);
    if (response.status !== 200 && response.status !== 201) throw unexpectedStatus('create recurring charge', response);
    return toRecurringCharge(response, 'create recurring charge');
  }

  async getCharge(_account: Account<SandboxCredentials>, ref: RecurringChargeLookup): Promise<ProviderRecurringCharge> {
    const response = await this.call('get recurring charge', 'GET', `/recurring-charges/${encodeURIComponent(ref.txid)}`);
    if (response.status !== 200) throw unexpectedStatus('get recurring charge', response);
    return toRecurringCharge(response, 'get recurring charge');
  }

  async cancelCharge(_account: Account<SandboxCredentials>, ref: RecurringChargeLookup): Promise<ProviderRecurringCharge> {
    const response = await this.call('cancel recurring charge', 'POST', `/recurring-charges/${encodeURIComponent(ref.txid)}/cancel`, {});
    if (response.status !== 200) throw unexpectedStatus('cancel recurring charge', response);
    return toRecurringCharge(response, 'cancel recurring charge');
  }

  async retryCharge(_account: Account<SandboxCredentials>, ref: RecurringChargeLookup, date: string): Promise<ProviderRecurringCharge> {
    const path = `/recurring-charges/${encodeURIComponent(ref.txid)}/retries/${encodeURIComponent(date)}`;
    const response = await this.call('retry recurring charge', 'POST', path, {});
    if (response.status !== 200 && response.status !== 201) throw unexpectedStatus('retry recurring charge', response);
    return toRecurringCharge(response, 'retry recurring charge');
  }

  /**
   * A `/rec` or `/cobr` callback: signed as payments' callbacks are (and unsigned accepted only
   * outside production, for an account without a secret), then each entry read back from the
   * sandbox, in order, up to the first it does not know; nothing confirmed is a WebhookAuthError.
   * The news is what the read-back says, never what the body claims.
   */
  async receiveWebhook(account: Account<SandboxCredentials>, request: InboundWebhook): Promise<RecurringNews[]> {
    const secret = account.credentials.webhookSecret?.reveal();
    const verified = secret === undefined ? !this.options.isProduction : verifySandboxSignature(header(request.headers, SANDBOX_SIGNATURE_HEADER), request.rawBody, secret);
    if (!verified) throw new WebhookAuthError('The sandbox signature is missing or wrong.');
    const entries = parseCallback(request);
    const news: RecurringNews[] = [];
    for (const entry of entries) {
      try {
        if (entry.kind === 'recurrence') {
          const recurrence = await this.getRecurrence(account, { providerRecurrenceId: entry.id });
          news.push({ kind: 'recurrence', eventId: `sandbox:rec:${recurrence.providerRecurrenceId}:${recurrence.status}`, recurrence });
        } else {
          const charge = await this.getCharge(account, { txid: entry.id });
          news.push({ kind: 'charge', eventId: chargeEventId(charge), charge });
        }
      } catch (error) {
        // An id the sandbox does not know confirms nothing, and nothing after it is read (docs/sandbox.md, Recurrences).
        if (error instanceof UpstreamError && error.upstreamStatus === 404) break;
        throw error;
      }
    }
    if (news.length === 0) throw new WebhookAuthError('The sandbox confirmed none of the callback entries.');
    return news;
  }

  /** Makes the payer or the payer's bank act; the sandbox posts its callback and answers after that post. */
  async simulate(_account: Account<SandboxCredentials>, request: RecurringSimulation): Promise<SimulatedEventResult> {
    const path =
      request.subject === 'recurrence'
        ? `/recurrences/${encodeURIComponent(request.ref.providerRecurrenceId)}/simulate`
        : `/recurring-charges/${encodeURIComponent(request.ref.txid)}/simulate`;
    const response = await this.call('simulate', 'POST', path, { action: request.action });
    if (response.status !== 202) throw unexpectedStatus('simulate', response);
    const answer = jsonOf(response) as { eventId?: unknown; delivered?: unknown; status?: unknown; recurrence?: unknown; recurringCharge?: unknown } | undefined;
    const subject = request.subject === 'recurrence' ? answer?.recurrence : answer?.recurringCharge;
    if (typeof answer?.eventId !== 'string' || typeof answer.delivered !== 'boolean' || typeof subject !== 'object' || subject === null) {
      throw new UpstreamError({ kind: 'malformed', message: 'Sandbox simulate: unexpected answer', upstreamStatus: response.status });
    }
    return { eventId: answer.eventId, delivered: answer.delivered, status: typeof answer.status === 'number' ? answer.status : null, charge: subject as Record<string, unknown> };
  }
}

/**
 * One id per news: the same state read back twice is the same event, whatever callback carried it.
 * A charge's state is its status and its current attempt (the second attempt failing is new news).
 */
function chargeEventId(charge: ProviderRecurringCharge): string {
  const last = charge.attempts[charge.attempts.length - 1];
  return `sandbox:cobr:${charge.txid}:${charge.status}:${charge.attempts.length}:${last?.status ?? 'none'}`;
}

type CallbackEntry = { kind: 'recurrence'; id: string } | { kind: 'charge'; id: string };

/** `{recurrences:[{id}]}` at `/rec`, `{recurringCharges:[{txid}]}` at `/cobr` (docs/sandbox.md, Recurrences). */
function parseCallback(request: InboundWebhook): CallbackEntry[] {
  let body: unknown;
  try {
    body = JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    throw new WebhookParseError('The callback is not JSON.', 'body');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new WebhookParseError('The callback must be a JSON object.', 'body');
  const { recurrences, recurringCharges } = body as { recurrences?: unknown; recurringCharges?: unknown };
  const path = request.path.replace(/\/+$/, '');
  if ((recurrences === undefined) === (recurringCharges === undefined)) throw new WebhookParseError('The callback lists either recurrences or recurringCharges.', 'body');
  const kind = recurrences !== undefined ? 'recurrence' : 'charge';
  if (path !== '' && path !== (kind === 'recurrence' ? '/rec' : '/cobr')) throw new WebhookParseError(`A ${kind} callback does not belong at ${path.slice(0, 32)}.`, 'path');
  const list = kind === 'recurrence' ? recurrences : recurringCharges;
  const field = kind === 'recurrence' ? 'recurrences' : 'recurringCharges';
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CALLBACK_ENTRIES) {
    throw new WebhookParseError(`${field} must list 1 to ${MAX_CALLBACK_ENTRIES} entries.`, field);
  }
  return list.map((entry: unknown, index) => {
    const id = (entry as { id?: unknown; txid?: unknown } | null)?.[kind === 'recurrence' ? 'id' : 'txid'];
    if (typeof id !== 'string' || !/^[A-Za-z0-9_]{1,64}$/.test(id)) throw new WebhookParseError(`${field}[${index}] names no ${kind === 'recurrence' ? 'id' : 'txid'}.`, field);
    return { kind, id };
  });
}

function malformed(operation: SandboxRecurringOperation, response: OutboundAnswer, why: string): UpstreamError {
  return new UpstreamError({ kind: 'malformed', message: `Sandbox ${operation}: ${why}`, upstreamStatus: response.status });
}

function objectOf(response: OutboundAnswer, operation: SandboxRecurringOperation): Record<string, unknown> {
  const body = jsonOf(response);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw malformed(operation, response, 'the body is not a JSON object');
  return body as Record<string, unknown>;
}

function toRecurrence(response: OutboundAnswer, operation: SandboxRecurringOperation): ProviderRecurrence {
  const body = objectOf(response, operation);
  const bad = (why: string) => malformed(operation, response, why);
  if (typeof body.id !== 'string' || body.id === '') throw bad('no recurrence id');
  if (!isSandboxRecurrenceStatus(body.status)) throw bad(`unknown status ${JSON.stringify(body.status)}`);
  if (body.cancelledBy !== null && !isSandboxCanceller(body.cancelledBy)) throw bad(`unknown cancelledBy ${JSON.stringify(body.cancelledBy)}`);
  if (body.pixCopiaECola !== null && (typeof body.pixCopiaECola !== 'string' || body.pixCopiaECola === '')) throw bad('pixCopiaECola is not a string');
  const expiresAt = optionalDate(body.expiresAt);
  const updatedAt = optionalDate(body.updatedAt);
  if (!expiresAt) throw bad('expiresAt is not a date');
  if (!updatedAt) throw bad('updatedAt is not a date');
  return {
    providerRecurrenceId: body.id,
    status: sandboxRecurrenceStatus(body.status),
    cancelledBy: body.cancelledBy === null ? null : sandboxCanceller(body.cancelledBy),
    copyPaste: body.pixCopiaECola,
    authorizationExpiresAt: expiresAt,
    updatedAt,
  };
}

function toRecurringCharge(response: OutboundAnswer, operation: SandboxRecurringOperation): ProviderRecurringCharge {
  const body = objectOf(response, operation);
  const bad = (why: string) => malformed(operation, response, why);
  if (typeof body.txid !== 'string' || body.txid === '') throw bad('no txid');
  if (typeof body.recurrenceId !== 'string' || body.recurrenceId === '') throw bad('no recurrenceId');
  if (!isSandboxRecurringChargeStatus(body.status)) throw bad(`unknown status ${JSON.stringify(body.status)}`);
  const amountCents = typeof body.amount === 'string' ? wireAmountToCents(body.amount) : undefined;
  if (amountCents === undefined) throw bad('amount is not a two-place decimal string');
  if (!isCalendarDate(body.dueDate)) throw bad('dueDate is not a calendar date');
  if (!Array.isArray(body.attempts) || body.attempts.length === 0) throw bad('no attempts');
  const wireAttempts = body.attempts as unknown[];
  const attempts = wireAttempts.map((entry, index) => toAttempt(entry, (why) => bad(`attempts[${index}]: ${why}`)));
  const lastStatus = (wireAttempts[wireAttempts.length - 1] as { status: SandboxAttemptStatus }).status;
  const paidAt = optionalDate(body.paidAt);
  const updatedAt = optionalDate(body.updatedAt);
  if (paidAt === undefined) throw bad('paidAt is not a date');
  if (!updatedAt) throw bad('updatedAt is not a date');
  const endToEndId = nullableString(body.endToEndId);
  const failureReason = nullableString(body.failureReason);
  if (endToEndId === undefined) throw bad('endToEndId is not a string');
  if (failureReason === undefined) throw bad('failureReason is not a string');
  return {
    txid: body.txid,
    providerRecurrenceId: body.recurrenceId,
    ...sandboxChargeStatus(body.status, lastStatus),
    amountCents,
    dueDate: body.dueDate,
    attempts,
    endToEndId,
    paidAt,
    // A charge still open after a failed attempt reports that attempt's reason.
    failureReason: failureReason ?? (lastStatus === 'REJEITADA' ? attempts[attempts.length - 1]!.reason : null),
    updatedAt,
  };
}

function toAttempt(value: unknown, bad: (why: string) => UpstreamError): ProviderAttempt {
  if (typeof value !== 'object' || value === null) throw bad('not an object');
  const attempt = value as Record<string, unknown>;
  if (!isCalendarDate(attempt.date)) throw bad('date is not a calendar date');
  if (!isSandboxAttemptStatus(attempt.status)) throw bad(`unknown status ${JSON.stringify(attempt.status)}`);
  const endToEndId = nullableString(attempt.endToEndId);
  const reason = nullableString(attempt.failureReason);
  if (endToEndId === undefined || reason === undefined) throw bad('endToEndId and failureReason are strings or null');
  return { date: attempt.date, status: sandboxAttemptStatus(attempt.status), endToEndId, reason };
}

function nullableString(value: unknown): string | null | undefined {
  if (value === null) return null;
  return typeof value === 'string' ? value : undefined;
}

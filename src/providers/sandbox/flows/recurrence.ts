import { centsToDecimalString } from '../../../domain/money';
import type { Canceller, RecurrenceStatus } from '../../../domain/recurrence';
import type { SandboxCanceller, SandboxCreateRecurrenceBody, SandboxRecurrenceStatus } from '../../../common/sandbox-wire/sandbox-recurring-api';
import { type SimulatedEventResult, UpstreamError } from '../../provider-adapter';
import type { CreateRecurrenceRequest, ProviderRecurrence, RecurrenceLookup, RecurringSimulation } from '../../recurring';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import { readRecurrenceAnswer, type SandboxRecurrence } from '../wire';
import { parseAnswer, type SandboxCall, segment } from './api-call';

/*
 * Pix Automático's recurrences at the simulated PSP (docs/sandbox.md, Recurrences): create, read,
 * cancel, and the payer's side simulated. Statuses borrow the names of the BCB's Pix API.
 */

/**
 * `POST /recurrences`, keyed by the gateway's id (`Idempotency-Key`): a retry after a lost answer
 * gets the same recurrence (200). `webhookSecret`: a stored account's, to sign its callbacks with.
 */
export function createRecurrenceCall(request: CreateRecurrenceRequest, webhookSecret: string | undefined): SandboxCall {
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
    ...(webhookSecret ? { webhookSecret } : {}),
  };
  return { operation: 'create recurrence', method: 'POST', path: '/recurrences', body, headers: { 'idempotency-key': request.recurrenceId } };
}

export function readRecurrenceCall(ref: RecurrenceLookup): SandboxCall {
  return { operation: 'get recurrence', method: 'GET', path: `/recurrences/${segment(ref.providerRecurrenceId)}` };
}

export function cancelRecurrenceCall(ref: RecurrenceLookup): SandboxCall {
  return { operation: 'cancel recurrence', method: 'POST', path: `/recurrences/${segment(ref.providerRecurrenceId)}/cancel`, body: {} };
}

/** The recurrence in an answer of `call`'s operation: created (201) or found again (200), read, or cancelled (200). */
export function parseRecurrence(call: SandboxCall, response: OutboundAnswer): ProviderRecurrence | UpstreamError {
  const expected = call.operation === 'create recurrence' ? [200, 201] : [200];
  return parseAnswer(call.operation, response, expected, (operation, answer) => toProviderRecurrence(readRecurrenceAnswer(operation, answer)));
}

/** `POST /recurrences/:id/simulate` or `/recurring-charges/:txid/simulate`: the payer or the payer's bank acts. */
export function recurringSimulationCall(request: RecurringSimulation): SandboxCall {
  const path = request.subject === 'recurrence' ? `/recurrences/${segment(request.ref.providerRecurrenceId)}/simulate` : `/recurring-charges/${segment(request.ref.txid)}/simulate`;
  return { operation: 'simulate', method: 'POST', path, body: { action: request.action } };
}

/** What a simulation answers (202): the callback's id, whether it was delivered, and the subject as it now stands. */
export function parseRecurringSimulation(request: RecurringSimulation, response: OutboundAnswer): SimulatedEventResult | UpstreamError {
  return parseAnswer('simulate', response, [202], (_operation, answer) => {
    const body = jsonOf(answer) as { eventId?: unknown; delivered?: unknown; status?: unknown; recurrence?: unknown; recurringCharge?: unknown } | undefined;
    const subject = request.subject === 'recurrence' ? body?.recurrence : body?.recurringCharge;
    if (typeof body?.eventId !== 'string' || typeof body.delivered !== 'boolean' || typeof subject !== 'object' || subject === null) {
      throw new UpstreamError({ kind: 'malformed', message: 'Sandbox simulate: unexpected answer', upstreamStatus: answer.status });
    }
    return { eventId: body.eventId, delivered: body.delivered, status: typeof body.status === 'number' ? body.status : null, charge: subject as Record<string, unknown> };
  });
}

/** The simulated PSP's recurrence statuses in the gateway's terms. Exhaustive. */
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

function toProviderRecurrence(recurrence: SandboxRecurrence): ProviderRecurrence {
  return {
    providerRecurrenceId: recurrence.id,
    status: sandboxRecurrenceStatus(recurrence.status),
    cancelledBy: recurrence.cancelledBy === null ? null : sandboxCanceller(recurrence.cancelledBy),
    copyPaste: recurrence.copyPaste,
    authorizationExpiresAt: recurrence.expiresAt,
    updatedAt: recurrence.updatedAt,
  };
}

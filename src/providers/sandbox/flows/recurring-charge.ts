import { centsToDecimalString } from '../../../domain/money';
import type { AttemptStatus } from '../../../domain/recurrence';
import type { SandboxAttemptStatus, SandboxCreateRecurringChargeBody, SandboxRecurringChargeStatus } from '../../../common/sandbox-wire/sandbox-recurring-api';
import { UpstreamError } from '../../provider-adapter';
import type { CreateRecurringChargeRequest, ProviderRecurringCharge, RecurringChargeLookup } from '../../recurring';
import type { OutboundAnswer } from '../../transport/transport';
import { readRecurringChargeAnswer, type SandboxRecurringCharge } from '../wire';
import { parseAnswer, type SandboxCall, segment } from './api-call';

/*
 * Pix Automático's recurring charges at the simulated PSP (docs/sandbox.md, Recurrences): one per
 * cycle, keyed by the gateway's txid; created, read, cancelled before their first attempt, retried.
 */

/** `PUT /recurring-charges/:txid` (the txid is the client's: the same txid again is the same charge). */
export function createRecurringChargeCall(request: CreateRecurringChargeRequest, webhookSecret: string | undefined): SandboxCall {
  const body: SandboxCreateRecurringChargeBody = {
    recurrenceId: request.providerRecurrenceId,
    dueDate: request.dueDate,
    amount: centsToDecimalString(request.amountCents),
    description: request.description,
    receiverAccount: request.receiverAccount,
    notificationUrl: request.notificationUrl,
    ...(webhookSecret ? { webhookSecret } : {}),
  };
  return { operation: 'create recurring charge', method: 'PUT', path: `/recurring-charges/${segment(request.txid)}`, body };
}

export function readRecurringChargeCall(ref: RecurringChargeLookup): SandboxCall {
  return { operation: 'get recurring charge', method: 'GET', path: `/recurring-charges/${segment(ref.txid)}` };
}

export function cancelRecurringChargeCall(ref: RecurringChargeLookup): SandboxCall {
  return { operation: 'cancel recurring charge', method: 'POST', path: `/recurring-charges/${segment(ref.txid)}/cancel`, body: {} };
}

/** `POST /recurring-charges/:txid/retries/:date`: a new attempt on `date`. */
export function retryRecurringChargeCall(ref: RecurringChargeLookup, date: string): SandboxCall {
  return { operation: 'retry recurring charge', method: 'POST', path: `/recurring-charges/${segment(ref.txid)}/retries/${segment(date)}`, body: {} };
}

/** The charge in an answer of `call`'s operation: a create or a retry answers 201 or 200, a read or a cancel 200. */
export function parseRecurringCharge(call: SandboxCall, response: OutboundAnswer): ProviderRecurringCharge | UpstreamError {
  const expected = call.operation === 'create recurring charge' || call.operation === 'retry recurring charge' ? [200, 201] : [200];
  return parseAnswer(call.operation, response, expected, (operation, answer) => toProviderRecurringCharge(readRecurringChargeAnswer(operation, answer)));
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

function toProviderRecurringCharge(charge: SandboxRecurringCharge): ProviderRecurringCharge {
  const attempts = charge.attempts.map((attempt) => ({
    date: attempt.date,
    status: sandboxAttemptStatus(attempt.status),
    endToEndId: attempt.endToEndId,
    reason: attempt.failureReason,
  }));
  const lastStatus = charge.attempts[charge.attempts.length - 1]!.status;
  return {
    txid: charge.txid,
    providerRecurrenceId: charge.recurrenceId,
    ...sandboxChargeStatus(charge.status, lastStatus),
    amountCents: charge.amountCents,
    dueDate: charge.dueDate,
    attempts,
    endToEndId: charge.endToEndId,
    paidAt: charge.paidAt,
    // A charge still open after a failed attempt reports that attempt's reason.
    failureReason: charge.failureReason ?? (lastStatus === 'REJEITADA' ? attempts[attempts.length - 1]!.reason : null),
    updatedAt: charge.updatedAt,
  };
}

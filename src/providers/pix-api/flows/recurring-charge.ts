import { centsToDecimalString } from '../../../domain/money';
import type { AttemptStatus } from '../../../domain/recurrence';
import { UpstreamError } from '../../provider-adapter';
import type { CreateRecurringChargeRequest, ProviderAttempt, ProviderRecurringCharge } from '../../recurring';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiOperation, PixApiProfile } from '../profile';
import { PIX_TXID } from '../txid';
import { type ApiCall, clip, labelOf, pixApiFailure, settle } from './api-call';
import { changedTo, type CobR, lastChange, readCobR, type Tentativa, type TentativaStatus, unknownStatus } from '../wire-recurrences';

/*
 * Recurring charges (`/cobr`): one cycle's debit of an authorized recurrence, with its settlement
 * attempts (`tentativas`). One builder per request, one parser per answer, and the mapping.
 */

/** `infoAdicional` holds at most 140 characters. */
const MAX_INFO = 140;

/**
 * `PUT /cobr/{txid}` (`CobRSolicitada`) with the gateway's txid, so a retry is the same request.
 * `ajusteDiaUtil` is required by `CobRBase`; true (its default since API Pix 2.7.0,
 * https://github.com/bacen/pix-api/blob/main/changelog.md) lets the PSP move a due date that falls
 * on a holiday of the payer's town to the next business day.
 */
export function createRecurringChargeCall(request: CreateRecurringChargeRequest): ApiCall {
  if (!PIX_TXID.test(request.txid)) throw new TypeError('createCharge: txid must be 26 to 35 letters and digits');
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) throw new TypeError('createCharge: amountCents must be a positive whole number');
  const { agencia, conta, tipoConta } = request.receiverAccount;
  const body: Record<string, unknown> = {
    idRec: request.providerRecurrenceId,
    calendario: { dataDeVencimento: request.dueDate },
    valor: { original: centsToDecimalString(request.amountCents) },
    ajusteDiaUtil: true,
    recebedor: { ...(agencia ? { agencia } : {}), conta, tipoConta },
  };
  const info = clip(request.description?.trim() ?? '', MAX_INFO);
  if (info !== '') body.infoAdicional = info;
  return { operation: 'create recurring charge', method: 'PUT', path: `/cobr/${request.txid}`, body };
}

/** Whether the charge a refused PUT's txid holds is the one asked for: then a retry gets it. */
export function isSameRecurringCharge(existing: CobR | null, request: CreateRecurringChargeRequest): existing is CobR {
  return existing?.idRec === request.providerRecurrenceId && existing.amountCents === request.amountCents && existing.dataDeVencimento === request.dueDate;
}

export function readRecurringChargeCall(txid: string): ApiCall {
  return { operation: 'read recurring charge', method: 'GET', path: `/cobr/${encodeURIComponent(txid)}` };
}

/** `PATCH /cobr/{txid}` `{"status":"CANCELADA"}`: the document allows it before the first attempt's date. */
export function cancelRecurringChargeCall(txid: string): ApiCall {
  return { operation: 'cancel recurring charge', method: 'PATCH', path: `/cobr/${encodeURIComponent(txid)}`, body: { status: 'CANCELADA' } };
}

/** `POST /cobr/{txid}/retentativa/{data}`: a new attempt on `date`. */
export function retryRecurringChargeCall(txid: string, date: string): ApiCall {
  return { operation: 'retry recurring charge', method: 'POST', path: `/cobr/${encodeURIComponent(txid)}/retentativa/${encodeURIComponent(date)}` };
}

/** The charge as a write answered it (201 created or retried, 200 revised). */
export function parseRecurringCharge(profile: PixApiProfile, operation: PixApiOperation, answer: OutboundAnswer): CobR | UpstreamError {
  const label = labelOf(profile, operation);
  if (answer.status !== 200 && answer.status !== 201) return pixApiFailure(label, answer);
  return settle(() => readCobR(label, answer.status, jsonOf(answer)));
}

/** A read: 404 is none (null). */
export function parseReadRecurringCharge(profile: PixApiProfile, answer: OutboundAnswer): CobR | null | UpstreamError {
  const label = labelOf(profile, 'read recurring charge');
  if (answer.status === 404) return null;
  if (answer.status !== 200) return pixApiFailure(label, answer);
  return settle(() => readCobR(label, answer.status, jsonOf(answer)));
}

/** Whether a retry for `date` is already held (its answer was lost): the charge's latest attempt is for that date and still under way. */
export function holdsRetryFor(cobr: CobR | null, date: string): cobr is CobR {
  const latest = cobr?.tentativas.at(-1);
  return latest?.dataLiquidacao === date && (latest.status === 'SOLICITADA' || latest.status === 'AGENDADA');
}

/** Whether the PSP no longer holds the charge open (a cancel it refused found it so). */
export function isClosed(cobr: CobR | null): cobr is CobR {
  return cobr?.status != null && !isOpen(cobr.status);
}

/**
 * The charge in the gateway's terms. Exhaustive: CRIADA and ATIVA are `scheduled` and open, unless
 * their latest attempt was rejected or expired, which is `failed` and still open (a retry may be
 * asked for); CONCLUIDA `paid`, REJEITADA `failed`, EXPIRADA `expired`, CANCELADA `cancelled`,
 * all closed. The paid attempt gives the endToEndId and when it was paid.
 */
export function toProviderRecurringCharge(profile: PixApiProfile, cobr: CobR): ProviderRecurringCharge {
  const cobrStatus = cobr.status;
  if (cobrStatus === null) throw unknownStatus(labelOf(profile, 'read recurring charge'), 'the recurring charge');
  const latest = cobr.tentativas.at(-1);
  const paid = cobr.tentativas.find((tentativa) => tentativa.status === 'PAGA');
  const status = chargeStatus(cobrStatus, cobr.tentativas);
  const failedAttempt = latest?.status === 'REJEITADA' || latest?.status === 'EXPIRADA' ? latest : undefined;
  const updates = [...cobr.atualizacao, ...cobr.tentativas.flatMap((tentativa) => tentativa.atualizacao)];
  return {
    txid: cobr.txid,
    providerRecurrenceId: cobr.idRec,
    status,
    open: isOpen(cobrStatus),
    amountCents: cobr.amountCents,
    dueDate: cobr.dataDeVencimento,
    attempts: cobr.tentativas.map((tentativa) => toAttempt(profile, tentativa)),
    endToEndId: status === 'paid' ? (paid?.endToEndId ?? null) : null,
    paidAt: status === 'paid' ? ((paid && changedTo(paid.atualizacao, 'PAGA')) ?? changedTo(cobr.atualizacao, 'CONCLUIDA')) : null,
    failureReason: status === 'failed' ? (failedAttempt?.rejection ?? cobr.rejection ?? (failedAttempt ? `attempt ${failedAttempt.status?.toLowerCase()}` : 'rejected')) : null,
    updatedAt: lastChange(updates),
  };
}

function chargeStatus(status: NonNullable<CobR['status']>, tentativas: readonly Tentativa[]): ProviderRecurringCharge['status'] {
  switch (status) {
    case 'CRIADA':
    case 'ATIVA': {
      const latest = tentativas.at(-1)?.status;
      return latest === 'REJEITADA' || latest === 'EXPIRADA' ? 'failed' : 'scheduled';
    }
    case 'CONCLUIDA':
      return 'paid';
    case 'REJEITADA':
      return 'failed';
    case 'EXPIRADA':
      return 'expired';
    case 'CANCELADA':
      return 'cancelled';
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped recurring charge status ${String(unmapped)}` });
    }
  }
}

function isOpen(status: NonNullable<CobR['status']>): boolean {
  return status === 'CRIADA' || status === 'ATIVA';
}

function toAttempt(profile: PixApiProfile, tentativa: Tentativa): ProviderAttempt {
  if (tentativa.status === null) throw unknownStatus(labelOf(profile, 'read recurring charge'), `the attempt of ${tentativa.dataLiquidacao}`);
  const status = attemptStatus(tentativa.status);
  return { date: tentativa.dataLiquidacao, status, endToEndId: tentativa.endToEndId, reason: status === 'failed' || status === 'expired' ? tentativa.rejection : null };
}

export function attemptStatus(status: TentativaStatus): AttemptStatus {
  switch (status) {
    case 'SOLICITADA':
    case 'AGENDADA':
      return 'scheduled';
    case 'PAGA':
      return 'paid';
    case 'REJEITADA':
      return 'failed';
    case 'EXPIRADA':
      return 'expired';
    case 'CANCELADA':
      return 'cancelled';
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped attempt status ${String(unmapped)}` });
    }
  }
}

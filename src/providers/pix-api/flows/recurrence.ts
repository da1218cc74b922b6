import { centsToDecimalString } from '../../../domain/money';
import type { Canceller, Frequency, Journey, RecurrenceStatus, RetryPolicy } from '../../../domain/recurrence';
import { UpstreamError } from '../../provider-adapter';
import type { CreateRecurrenceRequest, ProviderRecurrence } from '../../recurring';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiOperation, PixApiProfile } from '../profile';
import { PIX_TXID } from '../txid';
import { type ApiCall, clip, labelOf, pixApiFailure, settle } from './api-call';
import { lastChange, type LocRec, type Rec, type RecStatus, readLocRec, readRec, readRecList, type Solicitante, unknownStatus } from '../wire-recurrences';

/*
 * Recurrences (`/locrec`, `/rec`, `/solicrec`): one builder per request, one parser per answer, and
 * the mapping of the PSP's recurrence to the gateway's. The adapter (pix-api.recurring.ts) chains
 * them per journey.
 */

/** `vinculo.contrato` and `vinculo.objeto` hold at most 35 characters; `devedor.nome` 140. */
const MAX_CONTRACT = 35;
const MAX_DEVEDOR_NAME = 140;
/** How far back a retried creation looks for the recurrence its lost answer made (`GET /rec`'s `inicio`). */
export const LOOKBACK_MS = 7 * 86_400_000;
/** Pages of `GET /rec` read at most while looking (1000 recurrences each). */
export const MAX_LOOKUP_PAGES = 5;

/**
 * Throws TypeError for a request the document cannot carry, before anything is asked of the PSP:
 * the amount, the contract id, the payer's document, and what the journey needs.
 */
export function assertRecurrenceRequest(request: CreateRecurrenceRequest): void {
  createRecurrenceCall(request, null);
  if (request.journey === 'request' && !request.payerAccount) throw new TypeError('createRecurrence: the request journey needs the payer account');
}

/** `POST /locrec`: a location for the recurrence's QR. The document gives this route no body. */
export function createLocationCall(): ApiCall {
  return { operation: 'create recurrence location', method: 'POST', path: '/locrec' };
}

export function parseLocation(profile: PixApiProfile, answer: OutboundAnswer): LocRec | UpstreamError {
  const label = labelOf(profile, 'create recurrence location');
  if (answer.status !== 200 && answer.status !== 201) return pixApiFailure(label, answer);
  return settle(() => readLocRec(label, answer.status, jsonOf(answer)));
}

/**
 * `POST /rec` (`RecSolicitada`): the contract, the payer (`devedor`), the calendar, the amount (fixed, or the
 * receiver's floor of a variable one), the retry policy; `loc` for the QR journeys, and for
 * JORNADA_3 the first payment's txid (`ativacao.dadosJornada.txid`). JORNADA_4 names no txid here:
 * the document's `dadosJornada` is "Cobrança imediata vinculada à Jornada 3" only, and its due-date
 * charge is named when the composite QR is read (readRecurrenceCall).
 */
export function createRecurrenceCall(request: CreateRecurrenceRequest, locId: number | null): ApiCall {
  if (request.contract.id.length > MAX_CONTRACT) throw new TypeError(`createRecurrence: contract.id holds at most ${MAX_CONTRACT} characters (vinculo.contrato)`);
  const vinculo: Record<string, unknown> = { contrato: request.contract.id, devedor: devedorOf(request.payer) };
  const objeto = clip(request.contract.description?.trim() ?? '', MAX_CONTRACT);
  if (objeto !== '') vinculo.objeto = objeto;
  const calendario: Record<string, string> = { dataInicial: request.startDate, periodicidade: periodicidadeOf(request.frequency) };
  if (request.endDate !== null) calendario.dataFinal = request.endDate;
  const body: Record<string, unknown> = { vinculo, calendario, valor: valorOf(request), politicaRetentativa: politicaOf(request.retryPolicy) };
  if (locId !== null) body.loc = locId;
  if (request.journey === 'qr_with_first_payment') body.ativacao = { dadosJornada: { txid: firstPaymentTxid(request) } };
  // Checked here too, so that a JORNADA_4 request without its charge is refused before anything is asked.
  if (request.journey === 'qr_with_due_payment') firstPaymentTxid(request);
  return { operation: 'create recurrence', method: 'POST', path: '/rec', body };
}

/** The created (201) or revised (200) recurrence. */
export function parseRecurrence(profile: PixApiProfile, operation: PixApiOperation, answer: OutboundAnswer): Rec | UpstreamError {
  const label = labelOf(profile, operation);
  if (answer.status !== 200 && answer.status !== 201) return pixApiFailure(label, answer);
  return settle(() => readRec(label, answer.status, jsonOf(answer)));
}

/**
 * `GET /rec/{idRec}`, with `?txid=` for the composite QR of the first payment and the recurrence:
 * the txid of an immediate charge (`cob`) answers JORNADA_3's QR, that of a due-date charge
 * (`cobv`) JORNADA_4's: the table under `dadosQR` of `RecCompleta` in API Pix 2.9.0
 * (https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml, kept
 * as test/fakes/bcb-pix-api-openapi.yaml), whose `RecConsultaInvalida` also refuses a cob's txid
 * other than the recurrence's `dadosJornada.txid`, but not a cobv's.
 */
export function readRecurrenceCall(idRec: string, txid?: string | null): ApiCall {
  return { operation: 'read recurrence', method: 'GET', path: `/rec/${encodeURIComponent(idRec)}`, ...(txid ? { query: { txid } } : {}) };
}

/** A read: 404 is none (null). */
export function parseReadRecurrence(profile: PixApiProfile, answer: OutboundAnswer): Rec | null | UpstreamError {
  const label = labelOf(profile, 'read recurrence');
  if (answer.status === 404) return null;
  if (answer.status !== 200) return pixApiFailure(label, answer);
  return settle(() => readRec(label, answer.status, jsonOf(answer)));
}

export type QrJourney = 'JORNADA_2' | 'JORNADA_3' | 'JORNADA_4';

/** The `dadosQR.jornada` a QR journey's authorization code is read as; null for `request` (JORNADA_1, no QR). */
export function qrJourneyOf(journey: Journey): QrJourney | null {
  switch (journey) {
    case 'qr':
      return 'JORNADA_2';
    case 'qr_with_first_payment':
      return 'JORNADA_3';
    case 'qr_with_due_payment':
      return 'JORNADA_4';
    case 'request':
      return null;
    default: {
      const unmapped: never = journey;
      throw new TypeError(`Unmapped journey ${String(unmapped)}`);
    }
  }
}

/** The txid `GET /rec/{idRec}?txid=` names for the composite QR: the first payment's, for JORNADA_3 and JORNADA_4; null otherwise. */
export function compositeTxidOf(request: CreateRecurrenceRequest): string | null {
  return request.journey === 'qr_with_first_payment' || request.journey === 'qr_with_due_payment' ? firstPaymentTxid(request) : null;
}

/**
 * The read of a recurrence for its authorization code, as parseReadRecurrence, refusing a code the
 * PSP says is another journey's (`dadosQR.jornada`): a JORNADA_2 code where JORNADA_4's was asked
 * for would authorize without paying the first payment. A PSP that omits `jornada` is taken at its code.
 */
export function parseQrRead(profile: PixApiProfile, answer: OutboundAnswer, expected: QrJourney | null): Rec | null | UpstreamError {
  const read = parseReadRecurrence(profile, answer);
  if (expected === null || read === null || read instanceof UpstreamError || read.copyPaste === null) return read;
  const dadosQR = (jsonOf(answer) as { dadosQR?: { jornada?: unknown } } | undefined)?.dadosQR;
  const jornada = typeof dadosQR?.jornada === 'string' ? dadosQR.jornada : null;
  if (jornada !== null && jornada !== expected) {
    return new UpstreamError({ kind: 'malformed', message: `${labelOf(profile, 'read recurrence')}: the QR answered is ${jornada}'s where ${expected}'s was asked for` });
  }
  return read;
}

/**
 * `GET /rec` of the payer's recurrences created since `since`: how a retried creation finds the
 * recurrence whose `POST /rec` answer was lost. The document gives `POST /rec` no idempotency key
 * and the receiver no id of its own on a recurrence, but it lets the list be filtered by the
 * payer's CPF or CNPJ and a creation window, and each recurrence listed carries its `vinculo`.
 */
export function listRecurrencesCall(document: string, since: Date, now: Date, page: number): ApiCall {
  const seconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  // `fim` a minute ahead: the lost recurrence may carry a time later than ours (the PSP's clock,
  // or the part of this second our whole-second `fim` would cut off).
  const until = new Date(now.getTime() + 60_000);
  const doc = documentOf(document);
  return {
    operation: 'list recurrences',
    method: 'GET',
    path: '/rec',
    query: {
      inicio: seconds(since),
      fim: seconds(until),
      [doc.length === 11 ? 'cpf' : 'cnpj']: doc,
      'paginacao.paginaAtual': String(page),
      'paginacao.itensPorPagina': '1000',
    },
  };
}

export function parseRecurrenceList(profile: PixApiProfile, answer: OutboundAnswer): { recs: Rec[]; pages: number } | UpstreamError {
  const label = labelOf(profile, 'list recurrences');
  if (answer.status !== 200) return pixApiFailure(label, answer);
  return settle(() => readRecList(label, answer.status, jsonOf(answer)));
}

/**
 * Whether a recurrence the PSP holds is the one `request` asks for: same contract, payer,
 * calendar, amount and retry policy, made for the same journey (a location for the QR ones, and
 * the same first payment for the composite QR; none for `request`), and still waiting for the
 * payer (CRIADA). A recurrence the payer already answered is not reused: asking again is a new one.
 * Two of the merchant's recurrences alike in all of this and both unanswered would be one to the
 * PSP; the document gives the receiver no field of its own on a recurrence to tell them apart.
 */
export function isSameRecurrence(rec: Rec, request: CreateRecurrenceRequest): boolean {
  const { valorRec, valorMinimoRecebedor } = valorCents(request);
  // Only JORNADA_3 names its charge on the recurrence; JORNADA_4's is named when the QR is read.
  const journey =
    request.journey === 'request'
      ? rec.locId === null
      : rec.locId !== null && rec.requests === 0 && rec.journeyTxid === (request.journey === 'qr_with_first_payment' ? (request.firstPayment?.txid ?? null) : null);
  return (
    rec.status === 'CRIADA' &&
    journey &&
    rec.contrato === request.contract.id &&
    rec.payerDocument === documentOf(request.payer.document) &&
    rec.periodicidade === periodicidadeOf(request.frequency) &&
    rec.dataInicial === request.startDate &&
    rec.dataFinal === request.endDate &&
    rec.valorRec === valorRec &&
    rec.valorMinimoRecebedor === valorMinimoRecebedor &&
    (rec.politicaRetentativa === null || rec.politicaRetentativa === politicaOf(request.retryPolicy))
  );
}

/** `PATCH /rec/{idRec}` `{"status":"CANCELADA"}`. */
export function cancelRecurrenceCall(idRec: string): ApiCall {
  return { operation: 'cancel recurrence', method: 'PATCH', path: `/rec/${encodeURIComponent(idRec)}`, body: { status: 'CANCELADA' } };
}

/**
 * `POST /solicrec`: the PSP asks the payer's bank to have the payer authorize. `destinatario` is
 * the payer's account and document (`DadosBancarios` with a CPF or CNPJ); the request lasts
 * `expiresInSeconds`.
 */
export function requestAuthorizationCall(request: CreateRecurrenceRequest, idRec: string, now: Date): ApiCall {
  const account = request.payerAccount;
  if (!account) throw new TypeError('createRecurrence: the request journey needs the payer account');
  const doc = documentOf(request.payer.document);
  const destinatario: Record<string, string> = { ispbParticipante: account.ispbParticipante, conta: account.conta, [doc.length === 11 ? 'cpf' : 'cnpj']: doc };
  if (account.agencia) destinatario.agencia = account.agencia;
  const dataExpiracaoSolicitacao = new Date(now.getTime() + request.expiresInSeconds * 1000).toISOString();
  return { operation: 'request recurrence authorization', method: 'POST', path: '/solicrec', body: { idRec, calendario: { dataExpiracaoSolicitacao }, destinatario } };
}

/** The authorization request made (201 `SolicRecCompleta`): only its success matters, the recurrence is read next. */
export function parseAuthorizationRequest(profile: PixApiProfile, answer: OutboundAnswer): undefined | UpstreamError {
  if (answer.status !== 200 && answer.status !== 201) return pixApiFailure(labelOf(profile, 'request recurrence authorization'), answer);
  return undefined;
}

/**
 * The recurrence in the gateway's terms. Exhaustive: CRIADA waits for the payer; APROVADA is
 * authorized; REJEITADA, EXPIRADA and CANCELADA end it, the last with who cancelled. A status the
 * standard does not name yet cannot be mapped (an UpstreamError `malformed`).
 */
export function toProviderRecurrence(profile: PixApiProfile, rec: Rec): ProviderRecurrence {
  return {
    providerRecurrenceId: rec.idRec,
    status: recurrenceStatus(profile, rec.status),
    cancelledBy: rec.status === 'CANCELADA' ? canceller(rec.cancelledBy) : null,
    copyPaste: rec.copyPaste,
    authorizationExpiresAt: rec.requestExpiresAt,
    updatedAt: lastChange(rec.atualizacao),
  };
}

export function recurrenceStatus(profile: PixApiProfile, status: RecStatus | null): RecurrenceStatus {
  if (status === null) throw unknownStatus(labelOf(profile, 'read recurrence'), 'the recurrence');
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
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped recurrence status ${String(unmapped)}` });
    }
  }
}

/** Who cancelled: the receiver is the merchant, the payer is the payer, either PSP is `psp`. Unsaid (or unknown) is `psp`. */
export function canceller(solicitante: Solicitante | null): Canceller {
  if (solicitante === null) return 'psp';
  switch (solicitante) {
    case 'USUARIO_RECEBEDOR':
      return 'merchant';
    case 'USUARIO_PAGADOR':
      return 'payer';
    case 'PSP_PAGADOR':
    case 'PSP_RECEBEDOR':
      return 'psp';
    default: {
      const unmapped: never = solicitante;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped canceller ${String(unmapped)}` });
    }
  }
}

export function periodicidadeOf(frequency: Frequency): string {
  switch (frequency) {
    case 'weekly':
      return 'SEMANAL';
    case 'monthly':
      return 'MENSAL';
    case 'quarterly':
      return 'TRIMESTRAL';
    case 'semiannual':
      return 'SEMESTRAL';
    case 'annual':
      return 'ANUAL';
    default: {
      const unmapped: never = frequency;
      throw new TypeError(`Unmapped frequency ${String(unmapped)}`);
    }
  }
}

export function politicaOf(policy: RetryPolicy): string {
  switch (policy) {
    case 'none':
      return 'NAO_PERMITE';
    case 'three_in_seven_days':
      return 'PERMITE_3R_7D';
    default: {
      const unmapped: never = policy;
      throw new TypeError(`Unmapped retry policy ${String(unmapped)}`);
    }
  }
}

/** `valor`: `valorRec` for a fixed amount, `valorMinimoRecebedor` for the floor of a variable one; exactly one (the document refuses both). */
function valorOf(request: CreateRecurrenceRequest): Record<string, string> {
  const { valorRec, valorMinimoRecebedor } = valorCents(request);
  return valorRec !== null ? { valorRec: centsToDecimalString(valorRec) } : { valorMinimoRecebedor: centsToDecimalString(valorMinimoRecebedor!) };
}

function valorCents(request: CreateRecurrenceRequest): { valorRec: number | null; valorMinimoRecebedor: number | null } {
  const positive = (cents: number | null) => cents !== null && Number.isSafeInteger(cents) && cents > 0;
  if (positive(request.amountCents) === positive(request.minimumAmountCents)) {
    throw new TypeError('createRecurrence: exactly one of amountCents and minimumAmountCents must be a positive whole number');
  }
  return positive(request.amountCents) ? { valorRec: request.amountCents, valorMinimoRecebedor: null } : { valorRec: null, valorMinimoRecebedor: request.minimumAmountCents };
}

function firstPaymentTxid(request: CreateRecurrenceRequest): string {
  const txid = request.firstPayment?.txid;
  if (!txid || !PIX_TXID.test(txid)) throw new TypeError(`createRecurrence: ${request.journey} needs the first payment’s txid`);
  return txid;
}

/** `vinculo.devedor`: a CPF (11 digits) or a CNPJ (14, letters allowed from 2026), by length, and the name. */
function devedorOf(payer: CreateRecurrenceRequest['payer']): Record<string, string> {
  const doc = documentOf(payer.document);
  return { [doc.length === 11 ? 'cpf' : 'cnpj']: doc, nome: clip(payer.name.trim(), MAX_DEVEDOR_NAME) };
}

function documentOf(document: string): string {
  const doc = document.replace(/[.\-/\s]/g, '').toUpperCase();
  if (/^\d{11}$/.test(doc) || /^[0-9A-Z]{12}\d{2}$/.test(doc)) return doc;
  throw new TypeError("createRecurrence: the payer's document must be a CPF (11 digits) or a CNPJ (14 characters)");
}

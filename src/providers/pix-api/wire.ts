import type { PaymentStatus } from '../../domain/payment-status';
import { type ChargeBatchItem, type ProviderCharge, UpstreamError } from '../provider-adapter';
import type { ProviderRefundStatus } from '../provider-adapter';
import { problemOf } from '../support/answers';
import { maskDocument } from '../support/masking';
import { gatewayRefundIdOfDevolucao } from './txid';
import type { PixPaymentDetails, RefundReport } from '../../domain/provider-event';
import { brCodeCrc } from '../../domain/br-code';
import { addDays, brasiliaDate, isCalendarDate } from '../../domain/recurrence';
import { DEFAULT_DAYS_AFTER_DUE, lastPayableDate } from '../../domain/due-charge';
import { BRAZIL_CALENDAR } from '../../common/calendar/brazil-calendar';

/*
 * What the Pix API answers, read at the edge: every field the adapter uses is checked here, and an
 * answer that lacks one, or has it in another shape, is an UpstreamError `malformed`. The names
 * are the standard's (the Central Bank's OpenAPI document of the Pix API, v2).
 */

/** `CobrancaStatus`: the status of the charge's record, not of the charge (no EXPIRADA: expiry is computed). */
export const COB_STATUSES = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'] as const;
export type CobStatus = (typeof COB_STATUSES)[number];
/** The document's own description of `CobrancaStatus` spells the two removals `REMOVIDO_…`: read as the enum's. */
const COB_STATUS_SPELLINGS: Readonly<Record<string, CobStatus>> = {
  REMOVIDO_PELO_USUARIO_RECEBEDOR: 'REMOVIDA_PELO_USUARIO_RECEBEDOR',
  REMOVIDO_PELO_PSP: 'REMOVIDA_PELO_PSP',
};

/** `Devolucao.status`. */
export const DEVOLUCAO_STATUSES = ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'] as const;
export type DevolucaoStatus = (typeof DEVOLUCAO_STATUSES)[number];

/** `DevolucaoNatureza` (API Pix 2.9.0): the receiver's own returns, and the MED's (BE08, FR01, REFU). */
export const DEVOLUCAO_NATUREZAS = ['ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO'] as const;
export type DevolucaoNatureza = (typeof DEVOLUCAO_NATUREZAS)[number];

/*
 * Statuses are read leniently: the document's "Evolução da API Pix" counts new elements of an
 * enumeration among its compatible changes ("Clientes devem estar preparados para lidar com essas
 * mudanças sem quebrar"), so a status this version does not name is kept as `null` and concludes
 * nothing (a charge stays pending, a refund in progress), rather than failing the whole answer.
 */

export interface Cob {
  txid: string;
  /** null: a status the standard does not name (yet); it concludes nothing. */
  status: CobStatus | null;
  createdAt: Date;
  expiresInSeconds: number;
  amountCents: number;
  chave: string;
  /** The BR Code, as the PSP made it; null when the answer has none (`pixCopiaECola` is optional in `CobGerada` and `CobCompleta`). */
  copyPaste: string | null;
  pix: Pix[];
}

/**
 * A `CobVGerada`/`CobVCompleta`: a due-date charge. Its record has the same statuses as an
 * immediate charge's (`CobrancaStatus`); it stops being payable at the end of its due date plus
 * `validadeAposVencimento` days, in Brasília.
 */
export interface CobV {
  txid: string;
  status: CobStatus | null;
  createdAt: Date;
  /** `calendario.dataDeVencimento`, `YYYY-MM-DD`. */
  dueDate: string;
  /** `calendario.validadeAposVencimento`, whole days; the standard's 30 when absent. */
  daysAfterDue: number;
  amountCents: number;
  chave: string;
  copyPaste: string | null;
  pix: Pix[];
}

/** A charge of either kind, as the flows that serve both read it. */
export type ChargeRecord = Cob | CobV;

export function isCobV(charge: ChargeRecord): charge is CobV {
  return 'dueDate' in charge;
}

export interface Pix {
  endToEndId: string;
  txid: string | null;
  amountCents: number;
  horario: Date;
  /** Who paid, where the PSP says (not in the standard's Pix; several PSPs add `pagador`). */
  payer: { name: string; document: string | null } | null;
  devolucoes: Devolucao[];
}

export interface Devolucao {
  id: string;
  rtrId: string | null;
  amountCents: number;
  /** null: a status the standard does not name (yet); still in progress as far as the gateway knows. */
  status: DevolucaoStatus | null;
  /** `motivo`: why it reached its status (a failed one's reason). */
  reason: string | null;
  /** `natureza`; absent is `ORIGINAL` (the standard says so); null: one the standard does not name (yet). */
  natureza: DevolucaoNatureza | null;
  /** `horario.solicitacao` and `horario.liquidacao`, where given (both are optional). */
  requestedAt: Date | null;
  settledAt: Date | null;
}

/** A charge as the Pix API reports it; a paid one carries its Pix's details in `pix` (the first Pix that paid it). */
export type PixApiCharge = ProviderCharge;

const MONEY = /^\d{1,10}\.\d{2}$/;
const END_TO_END_ID = /^[a-zA-Z0-9]{32}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * An EMV MPM payload as the PSP gave it: payload format 01 first, and a CRC (field 63, last) that
 * matches. The adapter never rebuilds a BR Code; it refuses to hand on one no payer's app would read.
 */
export function isBrCode(text: string): boolean {
  if (!text.startsWith('000201') || text.length < 16 || text.length > 512) return false;
  const crc = text.slice(-4);
  return text.slice(-8, -4) === '6304' && brCodeCrc(text.slice(0, -4)) === crc.toUpperCase();
}

/** "10.50" → 1050, or undefined for anything that is not the standard's money. */
export function wireCents(value: unknown): number | undefined {
  if (typeof value !== 'string' || !MONEY.test(value)) return undefined;
  const [units, cents] = value.split('.');
  return Number(units) * 100 + Number(cents);
}

export function isEndToEndId(value: unknown): value is string {
  return typeof value === 'string' && END_TO_END_ID.test(value);
}

export class Reader {
  constructor(
    private readonly label: string,
    private readonly status: number | undefined,
  ) {}

  malformed(why: string): UpstreamError {
    return new UpstreamError({ kind: 'malformed', message: `${this.label}: ${why}`, upstreamStatus: this.status });
  }

  object(value: unknown, what: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw this.malformed(`${what} is not an object`);
    return value as Record<string, unknown>;
  }

  string(value: unknown, what: string): string {
    if (typeof value !== 'string' || value === '') throw this.malformed(`${what} is missing`);
    return value;
  }

  cents(value: unknown, what: string): number {
    const cents = wireCents(value);
    if (cents === undefined) throw this.malformed(`${what} is not an amount ("10.50")`);
    return cents;
  }

  date(value: unknown, what: string): Date {
    // RFC 3339 allows a leap second (":60"), which Date cannot hold: read as the second before.
    const date = typeof value === 'string' && DATE_TIME.test(value) ? new Date(value.replace(/(T\d{2}:\d{2}):60/i, '$1:59')) : undefined;
    if (!date || Number.isNaN(date.getTime())) throw this.malformed(`${what} is not an RFC 3339 date-time`);
    return date;
  }

  /** One of `allowed` (or of its other `spellings`); null for another string, which a later version of the standard may add. */
  statusOf<T extends string>(value: unknown, allowed: readonly T[], what: string, spellings: Readonly<Record<string, T>> = {}): T | null {
    if (typeof value !== 'string' || value === '') throw this.malformed(`${what} is missing`);
    if ((allowed as readonly string[]).includes(value)) return value as T;
    return spellings[value] ?? null;
  }
}

/**
 * A `CobGerada`/`CobCompleta`; the BR Code from the first of `copyPasteFields` present, or null when
 * none is (the caller decides whether it needs one). A BR Code that is there must be a valid one.
 */
export function readCob(label: string, status: number, body: unknown, copyPasteFields: readonly string[]): Cob {
  const r = new Reader(label, status);
  const cob = r.object(body, 'the charge');
  const calendario = r.object(cob.calendario, 'calendario');
  const valor = r.object(cob.valor, 'valor');
  const field = copyPasteFields.find((name) => typeof cob[name] === 'string' && cob[name] !== '');
  if (field !== undefined && !isBrCode(cob[field] as string)) throw r.malformed(`${field} is not a BR Code with a correct CRC`);
  const pix = cob.pix ?? [];
  if (!Array.isArray(pix)) throw r.malformed('pix is not a list');
  return {
    txid: r.string(txidOf(cob), 'txid'),
    status: r.statusOf(cob.status, COB_STATUSES, 'status', COB_STATUS_SPELLINGS),
    createdAt: r.date(calendario.criacao, 'calendario.criacao'),
    expiresInSeconds: expiracaoOf(r, calendario.expiracao),
    amountCents: r.cents(valor.original, 'valor.original'),
    chave: r.string(cob.chave, 'chave'),
    copyPaste: field === undefined ? null : (cob[field] as string),
    pix: pix.map((entry, i) => readPixWith(r, entry, `pix[${i}]`)),
  };
}

/** A `CobVGerada`/`CobVCompleta`, read as readCob reads a `CobGerada`: the BR Code, when there, must be a valid one. */
export function readCobV(label: string, status: number, body: unknown, copyPasteFields: readonly string[]): CobV {
  const r = new Reader(label, status);
  const cobv = r.object(body, 'the due-date charge');
  const calendario = r.object(cobv.calendario, 'calendario');
  const valor = r.object(cobv.valor, 'valor');
  const field = copyPasteFields.find((name) => typeof cobv[name] === 'string' && cobv[name] !== '');
  if (field !== undefined && !isBrCode(cobv[field] as string)) throw r.malformed(`${field} is not a BR Code with a correct CRC`);
  const pix = cobv.pix ?? [];
  if (!Array.isArray(pix)) throw r.malformed('pix is not a list');
  if (!isCalendarDate(calendario.dataDeVencimento)) throw r.malformed('calendario.dataDeVencimento is not a date (YYYY-MM-DD)');
  return {
    txid: r.string(txidOf(cobv), 'txid'),
    status: r.statusOf(cobv.status, COB_STATUSES, 'status', COB_STATUS_SPELLINGS),
    createdAt: r.date(calendario.criacao, 'calendario.criacao'),
    dueDate: calendario.dataDeVencimento,
    daysAfterDue: validadeOf(r, calendario.validadeAposVencimento),
    amountCents: r.cents(valor.original, 'valor.original'),
    chave: r.string(cobv.chave, 'chave'),
    copyPaste: field === undefined ? null : (cobv[field] as string),
    pix: pix.map((entry, i) => readPixWith(r, entry, `pix[${i}]`)),
  };
}

/**
 * `calendario.validadeAposVencimento`: whole days, 30 when absent (the standard's default, which
 * its answers must carry: https://github.com/bacen/pix-api/issues/413). Digits in a string are
 * read too, as for `expiracao`.
 */
function validadeOf(r: Reader, value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_DAYS_AFTER_DUE;
  const days = typeof value === 'string' && /^\d{1,5}$/.test(value) ? Number(value) : value;
  if (typeof days !== 'number' || !Number.isSafeInteger(days) || days < 0) throw r.malformed('calendario.validadeAposVencimento is not a whole number of days');
  return days;
}

/**
 * `txid`, or `txId` where a PSP spells it so (Santander, as integrators report in
 * https://github.com/bacen/pix-api/issues/278): the standard's name wins when both are there.
 */
function txidOf(object: Record<string, unknown>): unknown {
  return object.txid ?? object.txId;
}

/**
 * `calendario.expiracao`: whole seconds, 86400 when absent (the standard's default). An integer in
 * the schema, but the document's own `example` ("3600") and `default` ("86400") are strings, so
 * digits in a string are read too.
 */
function expiracaoOf(r: Reader, value: unknown): number {
  if (value === undefined || value === null) return 86_400;
  const seconds = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds) || seconds <= 0) throw r.malformed('calendario.expiracao is not a whole number of seconds');
  return seconds;
}

/** A `Pix` (GET /pix/{e2eid}). */
export function readPix(label: string, status: number, body: unknown): Pix {
  return readPixWith(new Reader(label, status), body, 'the Pix');
}

function readPixWith(r: Reader, value: unknown, what: string): Pix {
  const pix = r.object(value, what);
  const endToEndId = r.string(pix.endToEndId, `${what}.endToEndId`);
  if (!END_TO_END_ID.test(endToEndId)) throw r.malformed(`${what}.endToEndId is not 32 letters and digits`);
  const given = txidOf(pix);
  const txid = given === undefined || given === null || given === '' ? null : r.string(given, `${what}.txid`);
  const devolucoes = pix.devolucoes ?? [];
  if (!Array.isArray(devolucoes)) throw r.malformed(`${what}.devolucoes is not a list`);
  return {
    endToEndId,
    txid,
    amountCents: r.cents(pix.valor, `${what}.valor`),
    horario: r.date(pix.horario, `${what}.horario`),
    payer: payerOf(pix.pagador),
    devolucoes: devolucoes.map((entry, i) => readDevolucaoWith(r, entry, `${what}.devolucoes[${i}]`)),
  };
}

/** `pagador` where a PSP adds it: a name and a CPF or CNPJ. Anything else is no payer (it is extra information, never required). */
function payerOf(value: unknown): Pix['payer'] {
  if (typeof value !== 'object' || value === null) return null;
  const payer = value as Record<string, unknown>;
  if (typeof payer.nome !== 'string' || payer.nome === '') return null;
  const document = typeof payer.cpf === 'string' ? payer.cpf : typeof payer.cnpj === 'string' ? payer.cnpj : null;
  return { name: payer.nome, document };
}

/** A `Devolucao`. */
export function readDevolucao(label: string, status: number, body: unknown): Devolucao {
  return readDevolucaoWith(new Reader(label, status), body, 'the refund');
}

function readDevolucaoWith(r: Reader, value: unknown, what: string): Devolucao {
  const devolucao = r.object(value, what);
  const horario = devolucao.horario === undefined || devolucao.horario === null ? {} : r.object(devolucao.horario, `${what}.horario`);
  const optionalDate = (date: unknown, name: string) => (date === undefined || date === null ? null : r.date(date, `${what}.horario.${name}`));
  return {
    id: r.string(devolucao.id, `${what}.id`),
    rtrId: typeof devolucao.rtrId === 'string' && devolucao.rtrId !== '' ? devolucao.rtrId : null,
    amountCents: r.cents(devolucao.valor, `${what}.valor`),
    status: r.statusOf(devolucao.status, DEVOLUCAO_STATUSES, `${what}.status`),
    reason: typeof devolucao.motivo === 'string' && devolucao.motivo !== '' ? devolucao.motivo : null,
    natureza: devolucao.natureza === undefined || devolucao.natureza === null ? 'ORIGINAL' : r.statusOf(devolucao.natureza, DEVOLUCAO_NATUREZAS, `${what}.natureza`),
    requestedAt: optionalDate(horario.solicitacao, 'solicitacao'),
    settledAt: optionalDate(horario.liquidacao, 'liquidacao'),
  };
}

/** When a charge stops being payable: its creation plus its lifetime. */
export function cobExpiresAt(cob: Cob): Date {
  return new Date(cob.createdAt.getTime() + cob.expiresInSeconds * 1000);
}

/**
 * When a due-date charge stops being payable: the end, in Brasília, of its last payable day, its due
 * date plus `validadeAposVencimento` days counted as the BCB's examples count them (a due date or a
 * last day that is not a business day moves to the next one: src/domain/due-charge.ts). Read back
 * ATIVA past it, the charge has expired; the PSP's own answer (CONCLUIDA) still wins.
 */
export function cobvExpiresAt(cobv: Pick<CobV, 'dueDate' | 'daysAfterDue'>): Date {
  return brasiliaDayEnd(lastPayableDate({ date: cobv.dueDate, daysAfterDue: cobv.daysAfterDue }, BRAZIL_CALENDAR));
}

/** When a charge of either kind stops being payable. */
export function chargeExpiresAt(charge: ChargeRecord): Date {
  return isCobV(charge) ? cobvExpiresAt(charge) : cobExpiresAt(charge);
}

/** The last millisecond of `date` (`YYYY-MM-DD`) in Brasília: the instant before the next day's midnight there. */
export function brasiliaDayEnd(date: string): Date {
  const next = addDays(date, 1);
  // Midnight in Brasília is 03:00 UTC (UTC−3); on a date of its former daylight saving time (UTC−2), an hour earlier.
  let midnight = Date.parse(`${next}T03:00:00Z`);
  while (brasiliaDate(new Date(midnight - 3_600_000)) === next) midnight -= 3_600_000;
  return new Date(midnight - 1);
}

/**
 * The gateway's status for a charge read at `now`. Exhaustive: a status added to COB_STATUSES does
 * not compile until mapped.
 *
 * - ATIVA: `pending`, or `expired` once past calendario.criacao + expiracao, or for a due-date
 *   charge past the end of its due date plus validadeAposVencimento (the standard has no expired
 *   status: its status is the record's, and an expired charge stays ATIVA).
 * - CONCLUIDA: `paid`; `refunded` once returned whole (its settled devoluções add up to what was paid).
 * - REMOVIDA_PELO_USUARIO_RECEBEDOR: `cancelled`: the receiver (this gateway, cancelCharge) removed it.
 * - REMOVIDA_PELO_PSP: the PSP removed it, not the merchant. PSPs do so mostly to charges that
 *   lapsed, so past its expiry it is `expired`; before, the PSP refused a charge the merchant still
 *   wanted (a compliance or fraud block), which is `failed`, not a cancellation nobody asked for.
 * - A status the standard does not name (null): `pending`, concluding nothing; reconciliation
 *   expires a payment that stays pending past its expiry.
 */
export function cobPaymentStatus(cob: ChargeRecord, now: Date): PaymentStatus {
  const status = cob.status;
  if (status === null) return 'pending';
  const expired = now.getTime() >= chargeExpiresAt(cob).getTime();
  switch (status) {
    case 'ATIVA':
      return expired ? 'expired' : 'pending';
    case 'CONCLUIDA': {
      const paid = cob.pix.reduce((sum, pix) => sum + pix.amountCents, 0);
      const returned = cob.pix.flatMap((pix) => pix.devolucoes).reduce((sum, d) => sum + (d.status === 'DEVOLVIDO' ? d.amountCents : 0), 0);
      return paid > 0 && returned >= paid ? 'refunded' : 'paid';
    }
    case 'REMOVIDA_PELO_USUARIO_RECEBEDOR':
      return 'cancelled';
    case 'REMOVIDA_PELO_PSP':
      return expired ? 'expired' : 'failed';
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped charge status ${String(unmapped)}` });
    }
  }
}

/** The gateway's status for a devolução. Exhaustive; a status the standard does not name is still `pending`. */
export function devolucaoRefundStatus(status: DevolucaoStatus | null): ProviderRefundStatus {
  if (status === null) return 'pending';
  switch (status) {
    case 'EM_PROCESSAMENTO':
      return 'pending';
    case 'DEVOLVIDO':
      return 'succeeded';
    case 'NAO_REALIZADO':
      return 'failed';
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped refund status ${String(unmapped)}` });
    }
  }
}

/**
 * Who asked for a devolução when the gateway did not: the MED's three natures are `med`; the
 * receiver's own (ORIGINAL, RETIRADA: its PSP's portal, or the gateway) are `psp`. Exhaustive; a
 * nature the standard does not name yet is `psp`, the receiver's side being the default the
 * standard gives an absent one.
 */
export function devolucaoOrigin(natureza: DevolucaoNatureza | null): RefundReport['externalOrigin'] {
  if (natureza === null) return 'psp';
  switch (natureza) {
    case 'ORIGINAL':
    case 'RETIRADA':
      return 'psp';
    case 'MED_OPERACIONAL':
    case 'MED_FRAUDE':
    case 'MED_PIX_AUTOMATICO':
      return 'med';
    default: {
      const unmapped: never = natureza;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped refund nature ${String(unmapped)}` });
    }
  }
}

/** A failed devolução's reason: its `motivo`, or a plain one when the PSP gives none (a failure always has a reason). */
export function devolucaoFailureReason(devolucao: Devolucao): string | null {
  return devolucaoRefundStatus(devolucao.status) === 'failed' ? (devolucao.reason ?? 'not carried out') : null;
}

/** A devolução as the gateway records it: by the PSP's id, in its status, with who asked for it. */
export function devolucaoReport(devolucao: Devolucao): RefundReport {
  return {
    providerRefundId: devolucao.id,
    status: devolucaoRefundStatus(devolucao.status),
    amountCents: devolucao.amountCents,
    externalOrigin: devolucaoOrigin(devolucao.natureza),
    failureReason: devolucaoFailureReason(devolucao),
    gatewayRefundId: gatewayRefundIdOfDevolucao(devolucao.id),
  };
}

/**
 * The charge in the gateway's terms, as read at `now`. The PSP has no id of its own for a cob or a
 * cobv: the txid is it. A read whose answer carried no BR Code reports `copyPaste` as '' (the
 * gateway keeps the one it got at creation, where the adapter insists on one). `amountCents` is the
 * charge's original value; what was paid (a due-date charge's, with its fine, interest or discount)
 * is `pix.paidAmountCents`.
 */
export function toPixApiCharge(cob: ChargeRecord, now: Date): PixApiCharge {
  const paid = cob.pix.length > 0;
  const first = paid ? cob.pix.reduce((earliest, pix) => (pix.horario < earliest.horario ? pix : earliest)) : null;
  return {
    providerPaymentId: cob.txid,
    txid: cob.txid,
    status: cobPaymentStatus(cob, now),
    amountCents: cob.amountCents,
    copyPaste: cob.copyPaste ?? '',
    expiresAt: chargeExpiresAt(cob),
    paidAt: first ? first.horario : null,
    ...(first
      ? {
          pix: pixDetails(
            first,
            cob.pix.reduce((sum, pix) => sum + pix.amountCents, 0),
          ),
          // Every devolução of every Pix of the charge: the gateway's, the portal's and the MED's.
          refunds: cob.pix.flatMap((pix) => pix.devolucoes).map(devolucaoReport),
        }
      : {}),
  };
}

/** What the gateway keeps about the Pix that paid: its end-to-end id, the amount, and the payer with the document masked. */
export function pixDetails(pix: Pix, paidAmountCents: number = pix.amountCents): PixPaymentDetails {
  return {
    endToEndId: pix.endToEndId,
    paidAmountCents,
    payer: pix.payer ? { name: pix.payer.name, documentMasked: pix.payer.document === null ? null : maskDocument(pix.payer.document) } : null,
  };
}

/*
 * Batches of due-date charges: `LoteCobVConsultado` (GET /lotecobv/{id}), one entry per charge
 * asked for, each in the status of its request.
 */

/** `LoteCobVConsultado.cobsv[].status`. */
export const LOTE_ITEM_STATUSES = ['EM_PROCESSAMENTO', 'CRIADA', 'NEGADA'] as const;
export type LoteItemStatus = (typeof LOTE_ITEM_STATUSES)[number];

export interface LoteItem {
  txid: string;
  /** null: a status the standard does not name (yet); it concludes nothing. */
  status: LoteItemStatus | null;
  /** A refused request's `problema` (RFC 7807) as text: its title, detail and violations. */
  problem: string | null;
}

export function readLoteCobV(label: string, status: number, body: unknown): LoteItem[] {
  const r = new Reader(label, status);
  const lote = r.object(body, 'the batch');
  if (!Array.isArray(lote.cobsv)) throw r.malformed('cobsv is not a list');
  return lote.cobsv.map((value, i) => {
    const item = r.object(value, `cobsv[${i}]`);
    const problem = problemOf(item.problema);
    return {
      txid: r.string(txidOf(item), `cobsv[${i}].txid`),
      status: r.statusOf(item.status, LOTE_ITEM_STATUSES, `cobsv[${i}].status`),
      problem: problem.message ?? problem.code ?? null,
    };
  });
}

/**
 * A batch entry in the gateway's terms. Exhaustive: a status added to LOTE_ITEM_STATUSES does not
 * compile until mapped. A status the standard does not name is still `processing`; a refusal
 * without a `problema` (which the standard requires) is still a refusal, with a plain reason.
 */
export function loteItemOf(item: LoteItem): ChargeBatchItem {
  const status = item.status;
  if (status === null) return { txid: item.txid, outcome: 'processing', problem: null };
  switch (status) {
    case 'EM_PROCESSAMENTO':
      return { txid: item.txid, outcome: 'processing', problem: null };
    case 'CRIADA':
      return { txid: item.txid, outcome: 'created', problem: null };
    case 'NEGADA':
      return { txid: item.txid, outcome: 'refused', problem: item.problem ?? 'refused by the PSP (no problema given)' };
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped batch item status ${String(unmapped)}` });
    }
  }
}

import { UpstreamError } from '../provider-adapter';
import { isCalendarDate } from '../../domain/recurrence';
import { isBrCode, Reader } from './wire';

/*
 * Pix Automático: what the Pix API answers about recurrences and recurring charges, read at the
 * edge as charges are in wire.ts: every field the adapter uses is checked, and an answer without one is
 * an UpstreamError `malformed`.
 * The names are the standard's (API Pix 2.9.0, https://github.com/bacen/pix-api/blob/main/openapi.yaml,
 * kept as test/fakes/bcb-pix-api-openapi.yaml: `RecCompleta`, `RecGerada`, `CobRCompleta`,
 * `CobRGerada`, `PayloadLocationRecGerada`). Statuses a later version may add are read as null.
 */

/** `RecStatus`. */
export const REC_STATUSES = ['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const;
export type RecStatus = (typeof REC_STATUSES)[number];

/** `CobRStatus`. */
export const COBR_STATUSES = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'] as const;
export type CobRStatus = (typeof COBR_STATUSES)[number];

/** `CobRTentativas.tentativas[].status`. */
export const TENTATIVA_STATUSES = ['SOLICITADA', 'AGENDADA', 'PAGA', 'CANCELADA', 'REJEITADA', 'EXPIRADA'] as const;
export type TentativaStatus = (typeof TENTATIVA_STATUSES)[number];

/** `encerramento.cancelamento.solicitante`: who cancelled. */
export const SOLICITANTES = ['PSP_PAGADOR', 'USUARIO_PAGADOR', 'PSP_RECEBEDOR', 'USUARIO_RECEBEDOR'] as const;
export type Solicitante = (typeof SOLICITANTES)[number];

/** One entry of an `atualizacao` history. */
export interface StatusChange {
  /** As the PSP wrote it (a status this version does not name is kept as a string). */
  status: string;
  at: Date;
}

export interface Rec {
  idRec: string;
  status: RecStatus | null;
  /** `vinculo.contrato` and the payer's document (`vinculo.devedor.cpf` or `.cnpj`). */
  contrato: string;
  payerDocument: string;
  periodicidade: string;
  dataInicial: string;
  dataFinal: string | null;
  valorRec: number | null;
  valorMinimoRecebedor: number | null;
  politicaRetentativa: string | null;
  /** The location's id, when one is linked (`loc.id`). */
  locId: number | null;
  /** `ativacao.dadosJornada.txid`: the composite QR's immediate charge. */
  journeyTxid: string | null;
  /** `encerramento.cancelamento.solicitante`, when cancelled. */
  cancelledBy: Solicitante | null;
  /** `dadosQR.pixCopiaECola`, a valid BR Code, when the answer has one. */
  copyPaste: string | null;
  /** The latest `dataExpiracaoSolicitacao` of the authorization requests the answer lists. */
  requestExpiresAt: Date | null;
  /** How many authorization requests the answer lists (`solicitacao`). */
  requests: number;
  atualizacao: StatusChange[];
}

export interface Tentativa {
  dataLiquidacao: string;
  status: TentativaStatus | null;
  endToEndId: string;
  atualizacao: StatusChange[];
  /** `rejeicao`: "AM04: Saldo insuficiente". */
  rejection: string | null;
}

export interface CobR {
  txid: string;
  idRec: string;
  status: CobRStatus | null;
  amountCents: number;
  dataDeVencimento: string;
  atualizacao: StatusChange[];
  tentativas: Tentativa[];
  /** `encerramento.rejeicao` of a rejected charge. */
  rejection: string | null;
}

export interface LocRec {
  id: number;
  location: string;
}

export function readLocRec(label: string, status: number, body: unknown): LocRec {
  const r = new Reader(label, status);
  const loc = r.object(body, 'the location');
  return { id: locIdOf(r, loc.id, 'id'), location: r.string(loc.location, 'location') };
}

/** A `RecGerada`, `RecCompleta` or one of `RecsConsultadas.recs`. */
export function readRec(label: string, status: number, body: unknown): Rec {
  return readRecWith(new Reader(label, status), body, 'the recurrence');
}

/** `RecsConsultadas`: the recurrences of one page, and how many pages there are. */
export function readRecList(label: string, status: number, body: unknown): { recs: Rec[]; pages: number } {
  const r = new Reader(label, status);
  const list = r.object(body, 'the list');
  if (!Array.isArray(list.recs)) throw r.malformed('recs is not a list');
  const paginacao = list.parametros && typeof list.parametros === 'object' ? (list.parametros as { paginacao?: { quantidadeDePaginas?: unknown } }).paginacao : undefined;
  const pages = typeof paginacao?.quantidadeDePaginas === 'number' && paginacao.quantidadeDePaginas > 0 ? paginacao.quantidadeDePaginas : 1;
  return { recs: list.recs.map((rec, i) => readRecWith(r, rec, `recs[${i}]`)), pages };
}

function readRecWith(r: Reader, value: unknown, what: string): Rec {
  const rec = r.object(value, what);
  const vinculo = r.object(rec.vinculo, `${what}.vinculo`);
  const devedor = r.object(vinculo.devedor, `${what}.vinculo.devedor`);
  const calendario = r.object(rec.calendario, `${what}.calendario`);
  const valor = rec.valor === undefined || rec.valor === null ? {} : r.object(rec.valor, `${what}.valor`);
  const optionalCents = (amount: unknown, name: string) => (amount === undefined || amount === null ? null : r.cents(amount, `${what}.valor.${name}`));
  const loc = rec.loc === undefined || rec.loc === null ? null : r.object(rec.loc, `${what}.loc`);
  const ativacao = optionalObject(rec.ativacao);
  const dadosJornada = optionalObject(ativacao?.dadosJornada);
  const encerramento = optionalObject(rec.encerramento);
  const cancelamento = optionalObject(encerramento?.cancelamento);
  const dadosQR = optionalObject(rec.dadosQR);
  const copyPaste = typeof dadosQR?.pixCopiaECola === 'string' && dadosQR.pixCopiaECola !== '' ? dadosQR.pixCopiaECola : null;
  if (copyPaste !== null && !isBrCode(copyPaste)) throw r.malformed(`${what}.dadosQR.pixCopiaECola is not a BR Code with a correct CRC`);
  const solicitacoes = Array.isArray(rec.solicitacao) ? rec.solicitacao : [];
  const expiries = solicitacoes
    .map((solicitacao) => optionalObject(optionalObject(solicitacao)?.calendario)?.dataExpiracaoSolicitacao)
    .filter((date) => date !== undefined)
    .map((date, i) => r.date(date, `${what}.solicitacao[${i}].calendario.dataExpiracaoSolicitacao`));
  return {
    idRec: r.string(rec.idRec, `${what}.idRec`),
    status: r.statusOf(rec.status, REC_STATUSES, `${what}.status`),
    contrato: r.string(vinculo.contrato, `${what}.vinculo.contrato`),
    payerDocument: r.string(devedor.cpf ?? devedor.cnpj, `${what}.vinculo.devedor.cpf or cnpj`),
    periodicidade: r.string(calendario.periodicidade, `${what}.calendario.periodicidade`),
    dataInicial: dateOf(r, calendario.dataInicial, `${what}.calendario.dataInicial`),
    dataFinal: calendario.dataFinal === undefined || calendario.dataFinal === null ? null : dateOf(r, calendario.dataFinal, `${what}.calendario.dataFinal`),
    valorRec: optionalCents(valor.valorRec, 'valorRec'),
    valorMinimoRecebedor: optionalCents(valor.valorMinimoRecebedor, 'valorMinimoRecebedor'),
    politicaRetentativa: typeof rec.politicaRetentativa === 'string' ? rec.politicaRetentativa : null,
    locId: loc === null ? null : locIdOf(r, loc.id, `${what}.loc.id`),
    journeyTxid: typeof dadosJornada?.txid === 'string' && dadosJornada.txid !== '' ? dadosJornada.txid : null,
    cancelledBy: cancelamento ? r.statusOf(cancelamento.solicitante, SOLICITANTES, `${what}.encerramento.cancelamento.solicitante`) : null,
    copyPaste,
    requestExpiresAt: expiries.length ? new Date(Math.max(...expiries.map((date) => date.getTime()))) : null,
    requests: solicitacoes.length,
    atualizacao: historyOf(r, rec.atualizacao, `${what}.atualizacao`),
  };
}

/** A `CobRGerada` (no history yet, possibly) or a `CobRCompleta`. */
export function readCobR(label: string, status: number, body: unknown): CobR {
  const r = new Reader(label, status);
  const cobr = r.object(body, 'the recurring charge');
  const calendario = r.object(cobr.calendario, 'calendario');
  const valor = r.object(cobr.valor, 'valor');
  const tentativas = cobr.tentativas ?? [];
  if (!Array.isArray(tentativas)) throw r.malformed('tentativas is not a list');
  return {
    txid: r.string(cobr.txid, 'txid'),
    idRec: r.string(cobr.idRec, 'idRec'),
    status: r.statusOf(cobr.status, COBR_STATUSES, 'status'),
    amountCents: r.cents(valor.original, 'valor.original'),
    dataDeVencimento: dateOf(r, calendario.dataDeVencimento, 'calendario.dataDeVencimento'),
    atualizacao: historyOf(r, cobr.atualizacao, 'atualizacao'),
    tentativas: tentativas.map((entry, i) => readTentativa(r, entry, `tentativas[${i}]`)),
    rejection: rejectionOf(optionalObject(optionalObject(cobr.encerramento)?.rejeicao)),
  };
}

function readTentativa(r: Reader, value: unknown, what: string): Tentativa {
  const tentativa = r.object(value, what);
  return {
    dataLiquidacao: dateOf(r, tentativa.dataLiquidacao, `${what}.dataLiquidacao`),
    status: r.statusOf(tentativa.status, TENTATIVA_STATUSES, `${what}.status`),
    endToEndId: r.string(tentativa.endToEndId, `${what}.endToEndId`),
    atualizacao: historyOf(r, tentativa.atualizacao, `${what}.atualizacao`),
    rejection: rejectionOf(optionalObject(tentativa.rejeicao)),
  };
}

/**
 * An `atualizacao` list, oldest first as the PSP gave it; absent is empty (`CobRGerada` has none).
 * The document's examples of recurrences name the status `nome` where its schema says `status`:
 * both are read.
 */
function historyOf(r: Reader, value: unknown, what: string): StatusChange[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw r.malformed(`${what} is not a list`);
  return value.map((entry, i) => {
    const change = r.object(entry, `${what}[${i}]`);
    return { status: r.string(change.status ?? change.nome, `${what}[${i}].status`), at: r.date(change.data, `${what}[${i}].data`) };
  });
}

/** The latest time of a history, or null when it has none. */
export function lastChange(history: readonly StatusChange[]): Date | null {
  return history.reduce<Date | null>((latest, change) => (latest === null || change.at > latest ? change.at : latest), null);
}

/** When the history records `status` (the last time it does), or null. */
export function changedTo(history: readonly StatusChange[], status: string): Date | null {
  return lastChange(history.filter((change) => change.status === status));
}

function rejectionOf(rejeicao: Record<string, unknown> | undefined): string | null {
  if (!rejeicao) return null;
  const parts = [rejeicao.codigo, rejeicao.descricao].filter((part): part is string => typeof part === 'string' && part.trim() !== '');
  return parts.length ? parts.join(': ') : null;
}

function optionalObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function dateOf(r: Reader, value: unknown, what: string): string {
  if (!isCalendarDate(value)) throw r.malformed(`${what} is not a date (YYYY-MM-DD)`);
  return value;
}

/** A location id: an integer (`PayloadLocationRecId`), or its digits in a string. */
function locIdOf(r: Reader, value: unknown, what: string): number {
  const id = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) throw r.malformed(`${what} is not a location id`);
  return id;
}

/** An unknown status concludes nothing, but the port has no status for "unknown": the answer cannot be used. */
export function unknownStatus(label: string, what: string): UpstreamError {
  return new UpstreamError({ kind: 'malformed', message: `${label}: ${what} has a status this adapter does not know` });
}

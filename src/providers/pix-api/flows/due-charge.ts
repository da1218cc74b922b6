import { centsToDecimalString } from '../../../domain/money';
import {
  type AbatementTerms,
  type DiscountTerms,
  type DueTerms,
  type FineTerms,
  type InterestTerms,
  isFixedDateDiscount,
  MAX_DAYS_AFTER_DUE,
  MAX_DISCOUNT_DATES,
} from '../../../domain/due-charge';
import { isCalendarDate } from '../../../domain/recurrence';
import type { ChargeChange, CreateChargeRequest, PayerAddress, UpstreamError } from '../../provider-adapter';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiOperation, PixApiProfile } from '../profile';
import { PIX_TXID } from '../txid';
import { type CobV, readCobV } from '../wire';
import { type ApiCall, clip, labelOf, pixApiFailure, settle } from './api-call';
import { devedorOf, MAX_PAYER_REQUEST } from './charge';

/*
 * Due-date charges (`cobv`): `PUT /cobv/{txid}` creates one with the gateway's txid, `PATCH` changes
 * or removes it, `GET` reads it. The terms are the standard's `CobVValor` (API Pix 2.9.0,
 * test/fakes/bcb-pix-api-openapi.yaml): each a `modalidade` from the standard's table of domains and
 * a `valorPerc`, an amount in reais or a percent, both written with two decimals. The gateway's
 * terms are integer hundredths of either (src/domain/due-charge.ts), so each is written as is.
 */

/** `devedor.logradouro` and `devedor.cidade` hold at most 200 characters (`DadosComplementaresPessoa`). */
const MAX_ADDRESS_LINE = 200;

/** `valor.multa.modalidade`: 1 a fixed amount, 2 a percent of the original value. */
export function fineModalidade(fine: FineTerms): 1 | 2 {
  return fine.type === 'fixed' ? 1 : 2;
}

/**
 * `valor.juros.modalidade`: 1 an amount per day, 2 a percent per day, 3 per month, 4 per year, all
 * counting calendar days; 5 to 8 the same counting business days.
 */
export function interestModalidade(interest: InterestTerms): number {
  const base = { amount_per_day: 1, percent_per_day: 2, percent_per_month: 3, percent_per_year: 4 }[interest.type];
  return interest.days === 'business' ? base + 4 : base;
}

/**
 * `valor.desconto.modalidade`: 1 a fixed amount and 2 a percent, each until the dates of
 * `descontoDataFixa`; 3 an amount per calendar day paid early, 4 per business day; 5 a percent per
 * calendar day early, 6 per business day.
 */
export function discountModalidade(discount: DiscountTerms): number {
  if (isFixedDateDiscount(discount)) return discount.type === 'fixed_until' ? 1 : 2;
  const calendar = discount.type === 'amount_per_day_early' ? 3 : 5;
  return discount.days === 'business' ? calendar + 1 : calendar;
}

/** `valor.abatimento.modalidade`: 1 a fixed amount, 2 a percent of the original value. */
export function abatementModalidade(abatement: AbatementTerms): 1 | 2 {
  return abatement.type === 'fixed' ? 1 : 2;
}

/** A value in hundredths, as the standard writes `valorPerc`: 250 → "2.50". */
function valorPerc(hundredths: number, what: string): string {
  if (!Number.isSafeInteger(hundredths) || hundredths < 0) throw new TypeError(`due charge: ${what} must be a whole number of hundredths, 0 or more`);
  return centsToDecimalString(hundredths);
}

/** `calendario` and the terms of `valor` besides `original`. */
function dueParts(due: DueTerms): { calendario: Record<string, unknown>; terms: Record<string, unknown> } {
  if (!isCalendarDate(due.date)) throw new TypeError('due charge: due.date must be a date (YYYY-MM-DD)');
  if (!Number.isSafeInteger(due.daysAfterDue) || due.daysAfterDue < 0 || due.daysAfterDue > MAX_DAYS_AFTER_DUE) {
    throw new TypeError(`due charge: due.daysAfterDue must be a whole number from 0 to ${MAX_DAYS_AFTER_DUE}`);
  }
  const terms: Record<string, unknown> = {};
  if (due.fine) terms.multa = { modalidade: fineModalidade(due.fine), valorPerc: valorPerc(due.fine.value, 'fine.value') };
  if (due.interest) terms.juros = { modalidade: interestModalidade(due.interest), valorPerc: valorPerc(due.interest.value, 'interest.value') };
  if (due.discount) terms.desconto = descontoOf(due.discount, due.date);
  if (due.abatement) terms.abatimento = { modalidade: abatementModalidade(due.abatement), valorPerc: valorPerc(due.abatement.value, 'abatement.value') };
  return { calendario: { dataDeVencimento: due.date, validadeAposVencimento: due.daysAfterDue }, terms };
}

/** Modalidades 1 and 2 carry their dates in `descontoDataFixa` and no `valorPerc`; 3 to 6 a `valorPerc` and no dates (the standard's violations of `PUT /cobv`). */
function descontoOf(discount: DiscountTerms, dueDate: string): Record<string, unknown> {
  const modalidade = discountModalidade(discount);
  if (!isFixedDateDiscount(discount)) return { modalidade, valorPerc: valorPerc(discount.value, 'discount.value') };
  if (discount.until.length < 1 || discount.until.length > MAX_DISCOUNT_DATES) throw new TypeError(`due charge: discount.until must hold 1 to ${MAX_DISCOUNT_DATES} dates`);
  const descontoDataFixa = discount.until.map((step, i) => {
    if (!isCalendarDate(step.date) || step.date > dueDate) throw new TypeError(`due charge: discount.until[${i}].date must be a date on or before the due date`);
    return { data: step.date, valorPerc: valorPerc(step.value, `discount.until[${i}].value`) };
  });
  return { modalidade, descontoDataFixa };
}

/**
 * `devedor` of a due-date charge, which the standard requires: the payer's CPF or CNPJ and name,
 * and the address when given (`DadosComplementaresPessoa`: street and city up to 200 characters,
 * the state's two letters, the postal code's eight digits).
 */
export function dueDevedorOf(payer: CreateChargeRequest['payer'], address: PayerAddress | null | undefined): Record<string, string> {
  const devedor = devedorOf(payer);
  if (!address) return devedor;
  const uf = address.state.trim().toUpperCase();
  const cep = address.zip.replace(/\D/g, '');
  if (!/^[A-Z]{2}$/.test(uf)) throw new TypeError("due charge: the payer's state must be its two letters");
  if (!/^\d{8}$/.test(cep)) throw new TypeError("due charge: the payer's postal code (CEP) must be eight digits");
  return { ...devedor, logradouro: clip(address.street.trim(), MAX_ADDRESS_LINE), cidade: clip(address.city.trim(), MAX_ADDRESS_LINE), uf, cep };
}

/** The standard's `CobVSolicitada` for a create request with `due` (also one entry of a batch, with its txid). */
export function dueChargeBody(request: CreateChargeRequest, chave: string): Record<string, unknown> {
  if (!request.due) throw new TypeError('due charge: the request has no due terms');
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) throw new TypeError('due charge: amountCents must be a positive whole number');
  const { calendario, terms } = dueParts(request.due);
  const body: Record<string, unknown> = {
    calendario,
    devedor: dueDevedorOf(request.payer, request.payerAddress),
    valor: { original: centsToDecimalString(request.amountCents), ...terms },
    chave,
  };
  const solicitacao = clip(request.description?.trim() ?? '', MAX_PAYER_REQUEST);
  if (solicitacao !== '') body.solicitacaoPagador = solicitacao;
  return body;
}

/** `PUT /cobv/{txid}` with the gateway's txid: a retry is the same request, never a second charge. */
export function createDueChargeCall(request: CreateChargeRequest, chave: string): ApiCall {
  if (!PIX_TXID.test(request.txid)) throw new TypeError('createCharge: txid must be 26 to 35 letters and digits');
  return { operation: 'create due charge', method: 'PUT', path: `/cobv/${request.txid}`, body: dueChargeBody(request, chave) };
}

/**
 * `PATCH /cobv/{txid}` to the new amount and terms: `calendario` and `valor` as a whole. A term the
 * new ones lack is sent as null, which the standard reads as its removal (a term left out stays as
 * it was: its maintainers in https://github.com/bacen/pix-api/issues/281). The location, hence the
 * BR Code, stays the same.
 */
export function updateDueChargeCall(txid: string, change: ChargeChange): ApiCall {
  if (!Number.isSafeInteger(change.amountCents) || change.amountCents <= 0) throw new TypeError('updateCharge: amountCents must be a positive whole number');
  const { calendario, terms } = dueParts(change.due);
  const valor = { original: centsToDecimalString(change.amountCents), multa: null, juros: null, desconto: null, abatimento: null, ...terms };
  return { operation: 'update due charge', method: 'PATCH', path: `/cobv/${encodeURIComponent(txid)}`, body: { calendario, valor } };
}

/** `PATCH /cobv/{txid}` to `REMOVIDA_PELO_USUARIO_RECEBEDOR`. */
export function cancelDueChargeCall(txid: string): ApiCall {
  return { operation: 'cancel due charge', method: 'PATCH', path: `/cobv/${encodeURIComponent(txid)}`, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } };
}

export function readDueChargeCall(txid: string): ApiCall {
  return { operation: 'read due charge', method: 'GET', path: `/cobv/${encodeURIComponent(txid)}` };
}

/** The due-date charge a create, change or removal answered: the standard says 201 for `PUT` and 200 for `PATCH`; both are taken for each, as for `cob`. */
export function parseDueCharge(profile: PixApiProfile, operation: PixApiOperation, answer: OutboundAnswer): CobV | UpstreamError {
  const label = labelOf(profile, operation);
  if (answer.status !== 200 && answer.status !== 201) return pixApiFailure(label, answer);
  return settle(() => readCobV(label, answer.status, jsonOf(answer), profile.copyPasteFields));
}

/** A read: 404 is none (null). */
export function parseReadDueCharge(profile: PixApiProfile, answer: OutboundAnswer): CobV | null | UpstreamError {
  const label = labelOf(profile, 'read due charge');
  if (answer.status === 404) return null;
  if (answer.status !== 200) return pixApiFailure(label, answer);
  return settle(() => readCobV(label, answer.status, jsonOf(answer), profile.copyPasteFields));
}

import { centsToDecimalString } from '../../../domain/money';
import { type CreateChargeRequest, UpstreamError } from '../../provider-adapter';
import { jsonOf, problemOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiProfile } from '../profile';
import { PIX_TXID } from '../txid';
import { type Cob, type CobV, isCobV, readCob } from '../wire';
import { type ApiCall, clip, labelOf, settle, pixApiFailure } from './api-call';

/** `solicitacaoPagador` and `descricao` (pacs.008/pacs.004 RemittanceInformation) hold at most 140 characters; `devedor.nome` 200. */
export const MAX_PAYER_REQUEST = 140;
const MAX_DEVEDOR_NAME = 200;

/** `PUT /cob/{txid}` with the gateway's txid: a retry is the same request, never a second charge. */
export function createChargeCall(request: CreateChargeRequest, chave: string): ApiCall {
  if (!PIX_TXID.test(request.txid)) throw new TypeError('createCharge: txid must be 26 to 35 letters and digits');
  const body: Record<string, unknown> = {
    calendario: { expiracao: request.expiresInSeconds },
    devedor: devedorOf(request.payer),
    valor: { original: centsToDecimalString(request.amountCents) },
    chave,
  };
  const solicitacao = clip(request.description?.trim() ?? '', MAX_PAYER_REQUEST);
  if (solicitacao !== '') body.solicitacaoPagador = solicitacao;
  return { operation: 'create charge', method: 'PUT', path: `/cob/${request.txid}`, body };
}

/**
 * The same charge without `devedor`, when the PSP refused its CPF. The document writes the CPF's
 * pattern as a regex literal, "/^\d{11}$/", which as a JSON Schema pattern demands the slashes: a
 * PSP validating with it as published refuses every `devedor.cpf`. `devedor` is optional in
 * CobSolicitada. Null when the answer is not that refusal.
 */
export function withoutRefusedCpf(call: ApiCall, answer: OutboundAnswer): ApiCall | null {
  const body = call.body as Record<string, unknown>;
  if (answer.status !== 400 || typeof (body.devedor as { cpf?: unknown } | undefined)?.cpf !== 'string') return null;
  const problem = problemOf(jsonOf(answer));
  const words = [problem.message ?? '', ...(problem.violations ?? []).map((v) => `${v.property ?? ''} ${v.reason ?? ''}`)].join(' ');
  if (!/\bcpf\b/i.test(words)) return null;
  const { devedor: _refused, ...rest } = body;
  return { ...call, body: rest };
}

/** The created charge. The standard says 201; several banks answer 200 (see each profile's `answers`). */
export function parseCreatedCharge(profile: PixApiProfile, answer: OutboundAnswer): Cob | UpstreamError {
  const label = labelOf(profile, 'create charge');
  if (answer.status !== 200 && answer.status !== 201) return pixApiFailure(label, answer);
  return settle(() => readCob(label, answer.status, jsonOf(answer), profile.copyPasteFields));
}

/**
 * Whether the charge a refused create's txid holds is the one asked for (same amount, same key; a
 * due-date charge also the same due date): then it is the answer.
 */
export function isSameCharge<T extends Cob | CobV>(existing: T | null, request: CreateChargeRequest, chave: string): existing is T {
  if (existing?.amountCents !== request.amountCents || existing.chave !== chave) return false;
  return !isCobV(existing) || existing.dueDate === request.due?.date;
}

/** A charge with neither a BR Code created nor read back is an answer the gateway cannot use. */
export function noBrCode(profile: PixApiProfile, operation: 'create charge' | 'create due charge' = 'create charge'): UpstreamError {
  const fields = profile.copyPasteFields.join(' or ');
  return new UpstreamError({ kind: 'malformed', message: `${labelOf(profile, operation)}: no BR Code (${fields}) in the charge, created or read back` });
}

/** `devedor`: a CPF (11 digits) or a CNPJ (14, letters allowed from 2026), by length, and the name. */
export function devedorOf(payer: CreateChargeRequest['payer']): Record<string, string> {
  const document = payer.document.replace(/[.\-/\s]/g, '').toUpperCase();
  const nome = clip(payer.name.trim(), MAX_DEVEDOR_NAME);
  if (/^\d{11}$/.test(document)) return { cpf: document, nome };
  if (/^[0-9A-Z]{12}\d{2}$/.test(document)) return { cnpj: document, nome };
  throw new TypeError("createCharge: the payer's document must be a CPF (11 digits) or a CNPJ (14 characters)");
}

import type { UpstreamError } from '../../provider-adapter';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiOperation, PixApiProfile } from '../profile';
import { type Cob, type Devolucao, type Pix, readCob, readDevolucao, readPix } from '../wire';
import { type ApiCall, labelOf, settle, pixApiFailure } from './api-call';

/*
 * Reads of the three things the Pix API holds: a charge (`GET /cob/{txid}`), a received Pix
 * (`GET /pix/{e2eid}`) and a devolução (`GET /pix/{e2eid}/devolucao/{id}`). A 404 is "none" (null):
 * the read-backs after a refusal and of a callback ask about things that may not exist.
 */

export function readCobCall(txid: string): ApiCall {
  return { operation: 'read charge', method: 'GET', path: `/cob/${encodeURIComponent(txid)}` };
}

export function parseCob(profile: PixApiProfile, answer: OutboundAnswer): Cob | null | UpstreamError {
  return found(profile, 'read charge', answer, (label) => readCob(label, answer.status, jsonOf(answer), profile.copyPasteFields));
}

export function readPixCall(endToEndId: string): ApiCall {
  return { operation: 'read pix', method: 'GET', path: `/pix/${encodeURIComponent(endToEndId)}` };
}

export function parsePix(profile: PixApiProfile, answer: OutboundAnswer): Pix | null | UpstreamError {
  return found(profile, 'read pix', answer, (label) => readPix(label, answer.status, jsonOf(answer)));
}

export function readDevolucaoCall(endToEndId: string, id: string): ApiCall {
  return { operation: 'read refund', method: 'GET', path: `/pix/${encodeURIComponent(endToEndId)}/devolucao/${encodeURIComponent(id)}` };
}

export function parseDevolucao(profile: PixApiProfile, answer: OutboundAnswer): Devolucao | null | UpstreamError {
  return found(profile, 'read refund', answer, (label) => readDevolucao(label, answer.status, jsonOf(answer)));
}

/** A read's answer: 404 is none (null), 200 is read by `read` (whose throw is the result), anything else the PSP's refusal. */
function found<T>(profile: PixApiProfile, operation: PixApiOperation, answer: OutboundAnswer, read: (label: string) => T): T | null | UpstreamError {
  const label = labelOf(profile, operation);
  if (answer.status === 404) return null;
  if (answer.status !== 200) return pixApiFailure(label, answer);
  return settle(() => read(label));
}

/**
 * The cheapest read every PSP has, for the health check: the charges of the last minute (`GET
 * /cob?inicio=&fim=`, times without milliseconds, the only form Santander takes:
 * https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPSantander.pas).
 */
export function listRecentChargesCall(now: Date): ApiCall {
  const seconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { operation: 'list charges', method: 'GET', path: '/cob', query: { inicio: seconds(new Date(now.getTime() - 60_000)), fim: seconds(now) } };
}

import type { UpstreamError } from '../../provider-adapter';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiProfile } from '../profile';
import { type ChargeRecord, type Cob, readCob } from '../wire';
import { type ApiCall, labelOf, settle, pixApiFailure } from './api-call';

/** `PATCH /cob/{txid}` to `REMOVIDA_PELO_USUARIO_RECEBEDOR`. */
export function cancelChargeCall(txid: string): ApiCall {
  return { operation: 'cancel charge', method: 'PATCH', path: `/cob/${encodeURIComponent(txid)}`, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } };
}

/** The charge as removed. 200 is the standard's answer; 201 is taken too, since Banco do Brasil answers so (banks/bb.ts). */
export function parseCancelledCharge(profile: PixApiProfile, answer: OutboundAnswer): Cob | UpstreamError {
  const label = labelOf(profile, 'cancel charge');
  if (answer.status !== 200 && answer.status !== 201) return pixApiFailure(label, answer);
  return settle(() => readCob(label, answer.status, jsonOf(answer), profile.copyPasteFields));
}

/** A cancel (or a change) refused because the charge is no longer ATIVA (paid meanwhile, already removed): the charge as now held is the answer. */
export function isConcluded<T extends ChargeRecord>(current: T | null): current is T {
  return current !== null && current.status !== null && current.status !== 'ATIVA';
}

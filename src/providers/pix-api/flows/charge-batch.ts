import type { ChargeBatchItem, ChargeBatchRequest, UpstreamError } from '../../provider-adapter';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiProfile } from '../profile';
import { PIX_TXID, pixLoteId } from '../txid';
import { loteItemOf, readLoteCobV } from '../wire';
import { type ApiCall, clip, labelOf, pixApiFailure, settle } from './api-call';
import { dueChargeBody } from './due-charge';

/** `descricao` of a batch: the standard sets no length; the gateway keeps it to the 140 characters of the standard's other free texts. */
const MAX_DESCRIPTION = 140;

/**
 * `PUT /lotecobv/{id}`: `{descricao, cobsv}`, each entry a `CobVSolicitada` with its `txid` (the
 * standard's `LoteCobVBody`). The id is derived from the gateway's batch id (pixLoteId), so a retry
 * is the same request; the same batch again with the same charges is, for the standard, a change of
 * those charges to what they already are.
 */
export function createChargeBatchCall(batch: ChargeBatchRequest, chave: string, maxCharges: number): ApiCall {
  if (batch.charges.length < 1 || batch.charges.length > maxCharges) throw new TypeError(`createChargeBatch: a batch holds 1 to ${maxCharges} charges`);
  const cobsv = batch.charges.map((charge) => {
    if (!PIX_TXID.test(charge.txid)) throw new TypeError('createChargeBatch: each txid must be 26 to 35 letters and digits');
    return { ...dueChargeBody(charge, chave), txid: charge.txid };
  });
  if (new Set(cobsv.map((charge) => charge.txid)).size !== cobsv.length) throw new TypeError('createChargeBatch: a txid appears twice in the batch');
  const descricao = clip(batch.description.trim(), MAX_DESCRIPTION);
  return { operation: 'create charge batch', method: 'PUT', path: `/lotecobv/${pixLoteId(batch.id)}`, body: { descricao, cobsv } };
}

/** The standard answers 202 (asked for, not yet made): 200, 201 and 204 are taken as the same. */
export function parseChargeBatchAccepted(profile: PixApiProfile, answer: OutboundAnswer): undefined | UpstreamError {
  if (answer.status === 200 || answer.status === 201 || answer.status === 202 || answer.status === 204) return undefined;
  return pixApiFailure(labelOf(profile, 'create charge batch'), answer);
}

export function readChargeBatchCall(id: string): ApiCall {
  return { operation: 'read charge batch', method: 'GET', path: `/lotecobv/${pixLoteId(id)}` };
}

/** Each charge of the batch as the PSP reports it (`LoteCobVConsultado`); 404 is none (null). */
export function parseChargeBatch(profile: PixApiProfile, answer: OutboundAnswer): ChargeBatchItem[] | null | UpstreamError {
  const label = labelOf(profile, 'read charge batch');
  if (answer.status === 404) return null;
  if (answer.status !== 200) return pixApiFailure(label, answer);
  return settle(() => readLoteCobV(label, answer.status, jsonOf(answer)).map(loteItemOf));
}

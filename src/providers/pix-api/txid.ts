import { createHash } from 'node:crypto';
import { digest62, TXID, TXID_LENGTH } from '../charge-txid';

/** A txid as the Pix API takes it in `PUT /cob/{txid}`. */
export const PIX_TXID = TXID;
/** A devolução id as the Pix API takes it in `PUT /pix/{e2eid}/devolucao/{id}`. */
export const PIX_DEVOLUCAO_ID = /^[a-zA-Z0-9]{1,35}$/;

/**
 * The devolução id of a gateway refund: the refund id when it already is one (`ref_…` without its
 * underscore), else 35 base62 characters of its hash. Deterministic, so a retried refund re-sends
 * the same `PUT /pix/{e2eid}/devolucao/{id}`.
 */
export function pixDevolucaoId(refundId: string): string {
  if (PIX_DEVOLUCAO_ID.test(refundId)) return refundId;
  const prefixed = /^([a-z]{2,5})_([a-zA-Z0-9]+)$/.exec(refundId);
  const joined = prefixed ? `${prefixed[1]}${prefixed[2]}` : '';
  return PIX_DEVOLUCAO_ID.test(joined) ? joined : digest62('pix-gateway/devolucao/v1', [refundId], TXID_LENGTH);
}

/**
 * The gateway refund a devolução id was derived from (pixDevolucaoId's `ref_…` form), or null for
 * an id the gateway did not choose. The caller still checks that such a refund exists for the charge.
 */
export function gatewayRefundIdOfDevolucao(devolucaoId: string): string | null {
  const match = /^ref([a-zA-Z0-9]+)$/.exec(devolucaoId);
  return match ? `ref_${match[1]}` : null;
}

/** A batch id as the Pix API's answers carry it: `LoteCobVConsultado.id` is an int64, so digits only. */
export const PIX_LOTE_ID = /^[1-9]\d{0,14}$/;

/**
 * The `/lotecobv/{id}` of a gateway batch: the id itself when it already is digits (15 at most, so
 * the PSP's JSON integer holds it exactly), else 15 digits of its hash. The path takes any text, but
 * the standard's answer gives the id as an integer (`LoteCobVConsultado.id`, int64): a PSP may take
 * only digits. Deterministic, so a retried batch re-sends the same `PUT`, and a read finds it.
 */
export function pixLoteId(batchId: string): string {
  if (PIX_LOTE_ID.test(batchId)) return batchId;
  const hash = BigInt(`0x${createHash('sha256').update('pix-gateway/lotecobv/v1\n').update(batchId).digest('hex')}`);
  return String(10n ** 14n + (hash % (9n * 10n ** 14n)));
}

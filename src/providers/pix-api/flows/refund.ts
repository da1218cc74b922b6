import { centsToDecimalString } from '../../../domain/money';
import type { ProviderRefund, RefundRequest, UpstreamError } from '../../provider-adapter';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiProfile } from '../profile';
import { type Devolucao, devolucaoFailureReason, devolucaoRefundStatus, readDevolucao } from '../wire';
import { type ApiCall, clip, labelOf, settle, pixApiFailure } from './api-call';
import { MAX_PAYER_REQUEST } from './charge';

/** A devolução in the gateway's terms, with the PSP's own return id. */
export interface PixApiRefund extends ProviderRefund {
  endToEndId: string;
  /** The SPI's return id (`D…`), once the PSP has one. */
  rtrId: string | null;
}

/** `PUT /pix/{e2eid}/devolucao/{id}`: the id is derived from the gateway's refund id, so a retry is the same request. */
export function refundCall(request: RefundRequest, endToEndId: string, id: string): ApiCall {
  assertRefundAmount(request);
  const body: Record<string, unknown> = { valor: centsToDecimalString(request.amountCents) };
  const descricao = clip(request.reason?.trim() ?? '', MAX_PAYER_REQUEST);
  if (descricao !== '') body.descricao = descricao;
  return { operation: 'refund', method: 'PUT', path: `/pix/${encodeURIComponent(endToEndId)}/devolucao/${encodeURIComponent(id)}`, body };
}

export function assertRefundAmount(request: RefundRequest): void {
  if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) throw new TypeError('refund: amountCents must be a positive whole number');
}

export function parseRefund(profile: PixApiProfile, answer: OutboundAnswer): Devolucao | UpstreamError {
  const label = labelOf(profile, 'refund');
  if (answer.status !== 200 && answer.status !== 201) return pixApiFailure(label, answer);
  return settle(() => readDevolucao(label, answer.status, jsonOf(answer)));
}

export function toRefund(refundId: string, endToEndId: string, devolucao: Devolucao): PixApiRefund {
  return {
    refundId,
    providerRefundId: devolucao.id,
    status: devolucaoRefundStatus(devolucao.status),
    amountCents: devolucao.amountCents,
    failureReason: devolucaoFailureReason(devolucao),
    endToEndId,
    rtrId: devolucao.rtrId,
  };
}

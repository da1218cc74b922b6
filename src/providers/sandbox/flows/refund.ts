import { centsToDecimalString } from '../../../domain/money';
import type { RefundReport } from '../../../domain/provider-event';
import type { RefundStatus } from '../../../domain/refund';
import type { SandboxRefundBody, SandboxRefundOrigin, SandboxRefundStatus } from '../../../common/sandbox-wire/sandbox-api';
import type { ProviderRefund, RefundLookup, RefundRequest, UpstreamError } from '../../provider-adapter';
import type { OutboundAnswer } from '../../transport/transport';
import { readRefundAnswer, type SandboxRefund } from '../wire';
import { chargeRef, parseAnswer, type SandboxCall, segment } from './api-call';

/*
 * Refunds at the simulated PSP (docs/sandbox.md, Refunds): keyed by the gateway's refund id, so the
 * same id again is the same refund, never a second one.
 */

/** `PUT /charges/:id/refunds/:refundId`. A refusal (over what is left, an unpaid charge) is an http 400 with the simulated PSP's code. */
export function refundCall(request: RefundRequest): SandboxCall {
  const body: SandboxRefundBody = { amount: centsToDecimalString(request.amountCents), reason: request.reason };
  return { operation: 'refund', method: 'PUT', path: `/charges/${segment(chargeRef(request.charge))}/refunds/${segment(request.refundId)}`, body };
}

/** `GET /refunds/:id`, by the simulated PSP's id, or by the gateway's refund id when its answer was lost (it finds either). */
export function readRefundCall(ref: RefundLookup): SandboxCall {
  return { operation: 'get refund', method: 'GET', path: `/refunds/${segment(ref.providerRefundId ?? ref.refundId)}` };
}

/** The refund made (201) or found again (200), as the gateway asked for it. */
export function parseRefund(response: OutboundAnswer, refundId: string): ProviderRefund | UpstreamError {
  return parseAnswer('refund', response, [200, 201], (operation, answer) => sandboxProviderRefund(readRefundAnswer(operation, answer), refundId));
}

/** The refund read back. */
export function parseReadRefund(response: OutboundAnswer, refundId: string): ProviderRefund | UpstreamError {
  return parseAnswer('get refund', response, [200], (operation, answer) => sandboxProviderRefund(readRefundAnswer(operation, answer), refundId));
}

/** The simulated PSP's refund statuses in the gateway's terms. Exhaustive: a new one will not compile until mapped. */
export function sandboxRefundStatus(status: SandboxRefundStatus): RefundStatus {
  switch (status) {
    case 'EM_PROCESSAMENTO':
      return 'pending';
    case 'DEVOLVIDO':
      return 'succeeded';
    case 'NAO_REALIZADO':
      return 'failed';
  }
}

/** Who asked, for a refund the gateway did not make: a MED return, or the PSP (its portal, or the API on someone else's behalf). */
export function sandboxExternalOrigin(origin: SandboxRefundOrigin): RefundReport['externalOrigin'] {
  switch (origin) {
    case 'med':
      return 'med';
    case 'api':
    case 'portal':
      return 'psp';
  }
}

export function sandboxRefundReport(refund: SandboxRefund): RefundReport {
  return {
    providerRefundId: refund.id,
    status: sandboxRefundStatus(refund.status),
    amountCents: refund.amountCents,
    externalOrigin: sandboxExternalOrigin(refund.origin),
    failureReason: refund.failureReason,
    // The client's refund id the simulated PSP was asked with: the gateway's own refund, matched by it.
    gatewayRefundId: refund.refundId,
  };
}

/** The refund as the gateway asked for it: `refundId` is the gateway's, whatever the simulated PSP echoes. */
export function sandboxProviderRefund(refund: SandboxRefund, refundId: string): ProviderRefund {
  return {
    refundId,
    providerRefundId: refund.id,
    status: sandboxRefundStatus(refund.status),
    amountCents: refund.amountCents,
    failureReason: refund.failureReason,
  };
}

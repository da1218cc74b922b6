import type { RefundReport } from '../../domain/provider-event';
import type { RefundStatus } from '../../domain/refund';
import type { ProviderRefund } from '../provider-adapter';
import { isSandboxRefundOrigin, isSandboxRefundStatus, type SandboxRefundOrigin, type SandboxRefundStatus, wireAmountToCents } from '../../common/sandbox-wire/sandbox-api';

/** A sandbox refund as read off the wire, checked. */
export interface SandboxRefund {
  id: string;
  /** The client's refund id it was asked for with; null when made outside the API. */
  refundId: string | null;
  amountCents: number;
  status: SandboxRefundStatus;
  origin: SandboxRefundOrigin;
  failureReason: string | null;
}

/** The sandbox's refund statuses in the gateway's terms. Exhaustive: a new one will not compile until mapped. */
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

const MAX_ID_LENGTH = 200;

/** A refund on the wire (`{id, refundId, amount, status, origin, failureReason, …}`), or why it is not one. */
export function readSandboxRefund(value: unknown): SandboxRefund | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'the refund is not an object';
  const refund = value as Record<string, unknown>;
  if (typeof refund.id !== 'string' || refund.id === '' || refund.id.length > MAX_ID_LENGTH) return 'the refund has no id';
  if (refund.refundId !== null && (typeof refund.refundId !== 'string' || refund.refundId === '')) return 'refundId is neither a string nor null';
  const amountCents = typeof refund.amount === 'string' ? wireAmountToCents(refund.amount) : undefined;
  if (amountCents === undefined) return 'the refund amount is not a two-place decimal string';
  if (!isSandboxRefundStatus(refund.status)) return `unknown refund status ${JSON.stringify(refund.status)}`;
  if (!isSandboxRefundOrigin(refund.origin)) return `unknown refund origin ${JSON.stringify(refund.origin)}`;
  if (refund.failureReason !== null && typeof refund.failureReason !== 'string') return 'failureReason is neither a string nor null';
  return {
    id: refund.id,
    refundId: refund.refundId,
    amountCents,
    status: refund.status,
    origin: refund.origin,
    // A failed refund always says why; the sandbox never leaves it out, but a reader should not pass on null for one.
    failureReason: refund.status === 'NAO_REALIZADO' ? (refund.failureReason ?? 'The sandbox gave no reason.') : null,
  };
}

export function sandboxRefundReport(refund: SandboxRefund): RefundReport {
  return {
    providerRefundId: refund.id,
    status: sandboxRefundStatus(refund.status),
    amountCents: refund.amountCents,
    externalOrigin: sandboxExternalOrigin(refund.origin),
    failureReason: refund.failureReason,
    // The client's refund id the sandbox was asked with: the gateway's own refund, matched by it.
    gatewayRefundId: refund.refundId,
  };
}

/** The refund as the gateway asked for it: `refundId` is the gateway's, whatever the sandbox echoes. */
export function sandboxProviderRefund(refund: SandboxRefund, refundId: string): ProviderRefund {
  return {
    refundId,
    providerRefundId: refund.id,
    status: sandboxRefundStatus(refund.status),
    amountCents: refund.amountCents,
    failureReason: refund.failureReason,
  };
}

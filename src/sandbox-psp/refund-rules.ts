import { randomUUID } from 'node:crypto';
import { centsToDecimalString, centsToReais } from '../domain/money';
import {
  SANDBOX_FAIL_MARKER,
  SANDBOX_HOLD_MARKER,
  type SandboxRefundEventBody,
  type SandboxRefundOrigin,
  type SandboxRefundStatus,
  type SandboxRefundWire,
} from '../common/sandbox-wire/sandbox-api';
import type { StoredCharge, StoredRefund } from './stored';

export type { StoredRefund } from './stored';
import { SandboxHttpError } from './sandbox-errors';

/** A new refund of the charge, in process. */
export function newRefund(
  charge: StoredCharge,
  fields: { refundId: string | null; amountCents: number; origin: SandboxRefundOrigin; reason: string | null },
  now: number,
): StoredRefund {
  return {
    id: `sbxr_${randomUUID().replaceAll('-', '')}`,
    refundId: fields.refundId,
    chargeId: charge.id,
    txid: charge.txid,
    amountCents: fields.amountCents,
    status: 'EM_PROCESSAMENTO',
    origin: fields.origin,
    reason: fields.reason,
    failureReason: null,
    createdAt: new Date(now),
    settledAt: null,
  };
}

/** What a refund asked for through the API does by itself: settle after the delay, fail after it, or wait to be told. */
export type RefundCourse = 'settle' | 'fail' | 'hold';

/** The reason's marker chooses the course (hold wins when both appear: nothing happens until told). */
export function refundCourse(reason: string | null): RefundCourse {
  const text = reason?.toLowerCase() ?? '';
  if (text.includes(SANDBOX_HOLD_MARKER)) return 'hold';
  if (text.includes(SANDBOX_FAIL_MARKER)) return 'fail';
  return 'settle';
}

/** How a refund in process ends when told to settle without a status: as its course says. */
export function outcomeOf(course: RefundCourse): Exclude<SandboxRefundStatus, 'EM_PROCESSAMENTO'> {
  switch (course) {
    case 'fail':
      return 'NAO_REALIZADO';
    case 'settle':
    case 'hold':
      return 'DEVOLVIDO';
  }
}

/** The failure reason of a refund the fail marker or a settle call without one failed. */
export const SIMULATED_FAILURE_REASON = 'The payer account could not be credited (simulated refund failure).';

/** What may still be refunded: the amount less what is refunded or in process. */
export function refundableCents(charge: StoredCharge): number {
  const taken = charge.refunds.reduce((sum, refund) => (refund.status === 'NAO_REALIZADO' ? sum : sum + refund.amountCents), 0);
  return Math.max(0, charge.amountCents - taken);
}

export function refundedCents(charge: StoredCharge): number {
  return charge.refunds.reduce((sum, refund) => (refund.status === 'DEVOLVIDO' ? sum + refund.amountCents : sum), 0);
}

/**
 * Why a new refund of `amountCents` cannot be made, or undefined when it can: only a paid charge is
 * refunded, and never beyond what is left (refunds in process count).
 */
export function refusal(charge: StoredCharge, amountCents: number): SandboxHttpError | undefined {
  if (amountCents <= 0) return new SandboxHttpError(400, 'INVALID_REQUEST', 'amount must be greater than 0.00', 'amount');
  if (charge.status !== 'CONCLUIDA' && charge.status !== 'DEVOLVIDA') {
    return new SandboxHttpError(400, 'CHARGE_NOT_PAID', `Charge ${charge.id} is ${charge.status}: only a paid charge can be refunded.`);
  }
  const left = refundableCents(charge);
  if (amountCents > left) {
    return new SandboxHttpError(
      400,
      'AMOUNT_EXCEEDS_AVAILABLE',
      `Refund of ${centsToDecimalString(amountCents)} BRL exceeds the ${centsToDecimalString(left)} BRL left to refund on charge ${charge.id}.`,
      'amount',
    );
  }
  return undefined;
}

/** The refund this client id already names on the charge (the same id again), a conflict, or undefined when it is new. */
export function existingRefund(charge: StoredCharge, found: StoredRefund | undefined, amountCents: number): StoredRefund | SandboxHttpError | undefined {
  if (!found) return undefined;
  if (found.chargeId === charge.id && found.amountCents === amountCents) return found;
  return new SandboxHttpError(
    409,
    'REFUND_ID_CONFLICT',
    `Refund id ${found.refundId ?? found.id} already names a refund of ${centsToDecimalString(found.amountCents)} BRL on charge ${found.chargeId}.`,
  );
}

/** Settles a refund in process; a charge refunded whole becomes DEVOLVIDA. False when it had settled already. */
export function settle(charge: StoredCharge, refund: StoredRefund, status: Exclude<SandboxRefundStatus, 'EM_PROCESSAMENTO'>, failureReason: string | null, now: number): boolean {
  if (refund.status !== 'EM_PROCESSAMENTO') return false;
  refund.status = status;
  refund.settledAt = new Date(now);
  refund.failureReason = status === 'NAO_REALIZADO' ? (failureReason ?? SIMULATED_FAILURE_REASON) : null;
  if (status === 'DEVOLVIDO' && refundedCents(charge) >= charge.amountCents) charge.status = 'DEVOLVIDA';
  return true;
}

export function refundToWire(refund: StoredRefund): SandboxRefundWire {
  return {
    id: refund.id,
    refundId: refund.refundId,
    chargeId: refund.chargeId,
    txid: refund.txid,
    amount: centsToDecimalString(refund.amountCents),
    status: refund.status,
    origin: refund.origin,
    reason: refund.reason,
    failureReason: refund.failureReason,
    createdAt: refund.createdAt.toISOString(),
    settledAt: refund.settledAt ? refund.settledAt.toISOString() : null,
  };
}

/** The callback about a settled refund; its id is the refund's and the status's, so posting the same report again repeats it. */
export function refundEvent(charge: StoredCharge, refund: StoredRefund, now: number): SandboxRefundEventBody {
  if (refund.status === 'EM_PROCESSAMENTO') throw new Error(`refund ${refund.id} has not settled`);
  const event = refund.status === 'DEVOLVIDO' ? 'refund.succeeded' : 'refund.failed';
  return {
    event,
    id: `evt_${refund.id}_${refund.status.toLowerCase()}`,
    created_at: new Date(refund.settledAt?.getTime() ?? now).toISOString(),
    data: { id: charge.id, txid: charge.txid, amount: centsToReais(refund.amountCents), status: charge.status, refund: refundToWire(refund) },
  };
}

import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '../../common/ids';
import type { RefundReport } from '../../domain/provider-event';
import type { RefundStatus } from '../../domain/refund';
import type { PaymentLockedForEvent } from '../payment.repository';
import { PaymentRepository } from '../payment.repository';
import type { Refund } from './refund.entity';
import { RefundRepository } from './refund.repository';
import { EventWriter } from '../lifecycle/event-writer';
import { type DeliveredPayment, deliveryBody, refundDeliveryBody } from '../lifecycle/delivery-body';
import type { EventForward, EventSource } from '../lifecycle/payment-event.entity';
import { decideRefund } from './refund-decision';

/** Where reports of a refund came from, and what to keep with it. */
export interface RefundReportContext {
  provider: string;
  accountId: string | null;
  /** The provider's event id (or the gateway's, for the answer to its own call): what deduplicates the report. */
  eventId: string;
  type: string;
  source: EventSource;
  requestId: string;
  payload: unknown;
  /** The gateway's refund the report is about, when the gateway knows it (the answer to its own request). */
  refundId?: string;
}

export type RefundReportResult =
  | { kind: 'duplicate' }
  /** Not attributable yet: the PSP cannot say whether it is one of the gateway's refunds whose answer was lost (these are read back now). Nothing was written. */
  | { kind: 'deferred'; unanswered: string[] }
  | { kind: 'recorded'; eventId: string; outcome: 'applied' | 'ignored' | 'amount_mismatch'; refundId: string; note: string | null; forward: EventForward };

/**
 * The refunds' bookkeeping (docs/api.md, Refunds): applies what a PSP reports of one refund to a
 * payment the caller holds locked, in the caller's transaction. The refund's row, the payment's
 * refunded amount and status, the events and the merchant's deliveries are written together.
 * Each refund settles once: a second report of it (another callback, reconciliation, the answer
 * to the gateway's own call) finds it settled and is recorded as ignored.
 */
@Injectable()
export class RefundEventsService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly refunds: RefundRepository,
    private readonly writer: EventWriter,
  ) {}

  async applyIn(tx: EntityManager, locked: PaymentLockedForEvent, report: RefundReport, context: RefundReportContext): Promise<RefundReportResult> {
    const { payment } = locked;
    const known = await this.match(tx, payment.id, report, context.refundId);
    if (!known && report.gatewayRefundId === undefined) {
      const unanswered = await this.refunds.unansweredIds(tx, payment.id);
      if (unanswered.length > 0) return { kind: 'deferred', unanswered };
    }
    // What the payment has returned is derived from its succeeded refunds, never from a stored total.
    const refunded = await this.refunds.succeededCents(tx, payment.id);
    const decision = decideRefund({ ...payment, refundedAmountCents: refunded }, known, report);
    const refundId = known?.id ?? newId('ref');
    const now = new Date();
    const moved = decision.outcome === 'applied' ? decision.payment : null;
    const after: DeliveredPayment = { ...payment, ...moved };
    const origin = known?.origin ?? report.externalOrigin;
    const refundAfter = {
      id: refundId,
      paymentId: payment.id,
      amountCents: report.amountCents,
      status: decision.outcome === 'applied' ? decision.refund : (known?.status ?? report.status),
      origin,
      reason: known?.reason ?? null,
      failureReason: report.status === 'failed' ? (report.failureReason ?? 'The PSP did not carry the refund out.') : (known?.failureReason ?? null),
      createdAt: known?.createdAt ?? now,
      updatedAt: now,
    };
    // What the merchant hears once the refund settles: its outcome (a refund still pending says nothing).
    const merchantEvent = decision.outcome !== 'applied' || decision.refund === 'pending' ? null : decision.refund === 'succeeded' ? 'refund.succeeded' : 'refund.failed';
    const recorded = await this.writer.record(
      tx,
      {
        provider: context.provider,
        accountId: context.accountId,
        providerEventId: context.eventId,
        type: context.type,
        source: context.source,
        paymentId: payment.id,
        merchantId: payment.merchantId,
        outcome: decision.outcome,
        fromStatus: payment.status,
        toStatus: after.status,
        amountCents: report.amountCents,
        note: decision.note,
        requestId: context.requestId,
        payload: context.payload,
        refundId,
        forward: merchantEvent
          ? { type: merchantEvent, webhookUrl: locked.webhookUrl, body: (eventId) => refundDeliveryBody(eventId, merchantEvent, refundAfter, after) }
          : undefined,
      },
      context.requestId,
    );
    if (!recorded) return { kind: 'duplicate' };

    if (decision.outcome !== 'applied') {
      // A report that moves nothing still tells the PSP's id of a refund whose answer was lost.
      if (known?.providerRefundId === null) await this.refunds.update(tx, known.id, { status: known.status, providerRefundId: report.providerRefundId, at: now });
      return { kind: 'recorded', eventId: recorded.eventId, outcome: decision.outcome, refundId, note: decision.note, forward: recorded.forward };
    }
    if (known) {
      await this.refunds.update(tx, known.id, { status: decision.refund, providerRefundId: report.providerRefundId, failureReason: refundAfter.failureReason, at: now });
    } else {
      await this.refunds.insert(tx, {
        id: refundId,
        paymentId: payment.id,
        merchantId: payment.merchantId,
        origin: report.externalOrigin,
        status: decision.refund,
        amountCents: report.amountCents,
        reason: null,
        failureReason: refundAfter.failureReason,
        provider: payment.provider,
        providerAccountId: payment.providerAccountId,
        txid: payment.txid,
        providerPaymentId: payment.providerPaymentId,
        endToEndId: payment.endToEndId,
        providerRefundId: report.providerRefundId,
        attemptId: null,
        // A refund made outside that is still pending is read back like the gateway's own.
        nextCheckAt: decision.refund === 'pending' ? now : null,
        createdAt: now,
      });
    }
    if (moved) {
      await this.payments.setRefundedFromRefunds(tx, payment.id, recorded.createdAt);
      await this.recordPaymentMove(tx, locked, after, context, `${context.eventId}#payment`);
      Object.assign(payment, { status: after.status, refundedAmountCents: after.refundedAmountCents });
    }
    return { kind: 'recorded', eventId: recorded.eventId, outcome: 'applied', refundId, note: null, forward: recorded.forward };
  }

  /** Refunds of the gateway's whose PSP id is unknown, read back by reconciliation now rather than at their next check. */
  readBackNow(ids: string[]): Promise<void> {
    return this.refunds.checkNow(ids, new Date());
  }

  /**
   * A PSP that says the whole payment went back, without naming refunds (a `payment.refunded`
   * event): the gateway's pending refunds succeeded, and whatever is still left was returned
   * outside the gateway. Each becomes the refund report it amounts to, recorded as the refund's
   * event under an id derived from the PSP's (so the same report twice is still one).
   */
  async applyWholeIn(tx: EntityManager, locked: PaymentLockedForEvent, context: RefundReportContext): Promise<RefundReportResult[]> {
    const results: RefundReportResult[] = [];
    for (const refund of await this.refunds.pendingForUpdate(tx, locked.payment.id)) {
      const report: RefundReport = {
        providerRefundId: refund.providerRefundId ?? refund.id,
        status: 'succeeded',
        amountCents: refund.amountCents,
        externalOrigin: 'psp',
        failureReason: null,
      };
      results.push(await this.applyIn(tx, locked, report, { ...context, type: 'refund.succeeded', eventId: `${context.eventId}#${refund.id}`, refundId: refund.id }));
    }
    const left = locked.payment.amountCents - (await this.refunds.succeededCents(tx, locked.payment.id));
    if (left > 0) {
      // Every pending refund of the gateway's was settled above: the rest is not one of them.
      const report: RefundReport = {
        providerRefundId: `${context.eventId}#rest`,
        status: 'succeeded',
        amountCents: left,
        externalOrigin: 'psp',
        failureReason: null,
        gatewayRefundId: null,
      };
      results.push(await this.applyIn(tx, locked, report, { ...context, type: 'refund.succeeded', eventId: `${context.eventId}#rest` }));
    }
    return results;
  }

  /**
   * The refund a report is about, by identifiers only, never by amount: the gateway's own request
   * (the answer to its call), the PSP's id, or the gateway's id the PSP's record names. Null for a
   * refund made outside the gateway (the PSP's portal, a MED return).
   */
  private async match(tx: EntityManager, paymentId: string, report: RefundReport, refundId?: string): Promise<Refund | null> {
    const ownId = refundId ?? report.gatewayRefundId ?? null;
    if (ownId) {
      const own = await this.refunds.findOwnForUpdate(tx, paymentId, ownId);
      if (own) return own;
    }
    return this.refunds.findByProviderRefundId(tx, paymentId, report.providerRefundId);
  }

  /** The payment's own event when a refund moved it: `payment.partially_refunded` or `payment.refunded`. */
  private async recordPaymentMove(tx: EntityManager, locked: PaymentLockedForEvent, after: DeliveredPayment, context: RefundReportContext, eventId: string): Promise<void> {
    const type = after.status === 'refunded' ? 'payment.refunded' : 'payment.partially_refunded';
    await this.writer.record(
      tx,
      {
        provider: context.provider,
        accountId: context.accountId,
        providerEventId: eventId,
        type,
        source: context.source,
        paymentId: locked.payment.id,
        merchantId: locked.payment.merchantId,
        outcome: 'applied',
        fromStatus: locked.payment.status,
        toStatus: after.status,
        amountCents: after.refundedAmountCents,
        note: null,
        requestId: context.requestId,
        payload: null,
        forward: { type, webhookUrl: locked.webhookUrl, body: (id) => deliveryBody(id, type, after) },
      },
      context.requestId,
    );
  }
}

/** The id of the event that records the PSP's answer to the gateway's own refund call: one per refund and status. */
export function gatewayRefundEventId(refundId: string, status: RefundStatus): string {
  return `gateway:refund:${refundId}:${status}`;
}

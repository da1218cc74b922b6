import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentRepository, type PaymentLockedForEvent } from '../payment.repository';
import { isRefundable, type PaymentStatus } from '../../domain/payment-status';
import { DELIVERY_NUDGE, type DeliveryNudge } from '../../deliveries/delivery-nudge';
import { newId } from '../../common/ids';
import { Clock } from '../../domain/clock';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import { RefundRepository } from '../refunds/refund.repository';
import { decideEvent } from './event-decision';
import { dueMismatch } from '../due/due-mismatch';
import { EventWriter } from './event-writer';
import { deliveryBody } from './delivery-body';
import type { EventForward, EventOutcome, EventSource } from './payment-event.entity';
import { isRefundEvent, type ProviderEvent, refundEventType, type RefundReport } from '../../domain/provider-event';
import type { RefundStatus } from '../../domain/refund';
import { gatewayRefundEventId, type RefundReportContext, RefundEventsService } from '../refunds/refund-events.service';

export interface ApplyContext {
  source: EventSource;
  /** Request id of the intake (or of the reconciliation run): the forward's X-Request-Id. */
  requestId: string;
  /** What the provider said, kept with the event for inspection. */
  payload: unknown;
  /**
   * Record the event only if the locked payment is still in this status. Reconciliation sets it:
   * a webhook that got there first already did the work, and a second entry would only be noise.
   */
  onlyFromStatus?: PaymentStatus;
  /** The provider account the event came through; null (the default) for a provider's built-in configuration. */
  accountId?: string | null;
  /** The gateway's refund a refund event is about, when the gateway knows it (the answer to its own call). */
  refundId?: string;
}

export type ApplyResult =
  | { kind: 'duplicate' }
  /** A refund report the PSP cannot attribute while one of the gateway's refunds awaits its PSP id: nothing written, those refunds read back now; the report is to be told again. */
  | { kind: 'deferred' }
  | { kind: 'skipped'; status: PaymentStatus }
  | {
      kind: 'recorded';
      /** The gateway's event id (`evt_…`). */
      eventId: string;
      outcome: EventOutcome;
      paymentId: string | null;
      /** The payment's status after the event (null when unmatched). */
      status: PaymentStatus | null;
      forward: EventForward;
      note: string | null;
      /** The event paid a payment closed unpaid (docs/api.md, States): money received after close. */
      paidAfterClose?: true;
    };

/** What applying inside the transaction answers: a deferral still names the refunds to read back after the commit. */
type AppliedIn = Exclude<ApplyResult, { kind: 'deferred' }> | { kind: 'deferred'; unanswered: string[] };

/** What the PSP answered about one of the gateway's own refunds (the call, or reading it back). */
export interface RefundOutcome {
  status: RefundStatus;
  providerRefundId: string | null;
  amountCents: number;
  failureReason: string | null;
}

/**
 * Applies provider events to payments: the one place a payment's status changes after creation.
 * Webhook intake, reconciliation and the answers to the gateway's own calls (refunds, cancels) all
 * come through here, so the state machine, the amount checks, deduplication and the outbox write
 * behave the same whichever way the report arrived.
 */
@Injectable()
export class PaymentEventsService {
  private readonly logger = new Logger('PaymentEvents');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly payments: PaymentRepository,
    private readonly writer: EventWriter,
    private readonly refunds: RefundEventsService,
    private readonly refundRows: RefundRepository,
    private readonly metrics: GatewayMetrics,
    private readonly clock: Clock,
    @Optional() @Inject(DELIVERY_NUDGE) private readonly delivery?: DeliveryNudge,
  ) {}

  /**
   * One transaction: lock the payment, store the event (deduplicated by the unique index on
   * (provider, provider_account_id, provider_event_id): per account, never across accounts), move the payment and queue the merchant's delivery. The payment
   * lock comes first so that events for one payment are decided one after another against its
   * latest status; ON CONFLICT DO NOTHING settles identical events racing each other (the later
   * INSERT waits for the earlier transaction and then inserts nothing).
   */
  async apply(provider: string, event: ProviderEvent, context: ApplyContext): Promise<ApplyResult> {
    const result = await this.dataSource.transaction((manager) => this.applyIn(manager, provider, event, context));
    if (result.kind === 'recorded' && result.forward === 'queued') this.delivery?.nudge();
    // Counted once it is committed: the payment's lock and the event's unique id make it once per Pix.
    if (result.kind === 'recorded' && result.paidAfterClose) this.metrics.paidAfterClose.inc({ provider });
    if (result.kind === 'deferred') {
      await this.refunds.readBackNow(result.unanswered);
      return { kind: 'deferred' };
    }
    return result;
  }

  /**
   * The PSP's answer to one of the gateway's own refunds of `paymentId` (made through the payment's
   * account): recorded as that refund's event, once per refund and status.
   */
  applyRefundOutcome(
    payment: { id: string; provider: string; providerAccountId: string | null },
    refundId: string,
    outcome: RefundOutcome,
    requestId: string,
  ): Promise<ApplyResult> {
    const refund: RefundReport = {
      providerRefundId: outcome.providerRefundId ?? refundId,
      status: outcome.status,
      amountCents: outcome.amountCents,
      externalOrigin: 'psp',
      failureReason: outcome.failureReason,
    };
    return this.apply(
      payment.provider,
      {
        eventId: gatewayRefundEventId(refundId, outcome.status),
        type: refundEventType(outcome.status),
        paymentRef: payment.id,
        amountCents: outcome.amountCents,
        occurredAt: new Date(),
        refund,
      },
      { source: 'gateway', requestId, payload: { refundId, outcome }, accountId: payment.providerAccountId, refundId },
    );
  }

  /** Lock, decide, write: a refund's reports goes to the refund bookkeeping, anything else moves the payment. */
  private async applyIn(tx: EntityManager, provider: string, event: ProviderEvent, context: ApplyContext): Promise<AppliedIn> {
    const locked = await this.payments.lockForProviderEvent(tx, provider, event.paymentRef, context.accountId ?? null);
    const payment = locked?.payment ?? null;
    if (payment && context.onlyFromStatus && payment.status !== context.onlyFromStatus) return { kind: 'skipped', status: payment.status };
    if (locked && isRefundEvent(event.type)) return this.applyRefundIn(tx, locked, event, refundReport(provider, event, context));
    const wholeAmount = event.amountCents === null || event.amountCents === locked?.payment.amountCents;
    if (locked && event.type === 'payment.refunded' && isRefundable(locked.payment.status) && wholeAmount) {
      return this.applyWholeRefundIn(tx, locked, refundReport(provider, event, context));
    }
    return this.applyPaymentEventIn(tx, provider, event, context, locked);
  }

  /** A refund's reports about a payment: the refund bookkeeping records it, and the answer is its event's. */
  private async applyRefundIn(tx: EntityManager, locked: PaymentLockedForEvent, event: ProviderEvent, reports: RefundReportContext): Promise<AppliedIn> {
    if (!event.refund) throw new TypeError(`A ${event.type} event carries the refund it reports`);
    const result = await this.refunds.applyIn(tx, locked, event.refund, reports);
    if (result.kind === 'duplicate' || result.kind === 'deferred') return result;
    return {
      kind: 'recorded',
      eventId: result.eventId,
      outcome: result.outcome,
      paymentId: locked.payment.id,
      status: locked.payment.status,
      forward: result.forward,
      note: result.note,
    };
  }

  /** The whole payment went back at the PSP: the refunds it amounts to, each recorded and forwarded. */
  private async applyWholeRefundIn(tx: EntityManager, locked: PaymentLockedForEvent, reports: RefundReportContext): Promise<AppliedIn> {
    const results = await this.refunds.applyWholeIn(tx, locked, reports);
    const recorded = results.filter((result) => result.kind === 'recorded');
    const first = recorded[0];
    if (!first) return { kind: 'duplicate' };
    return {
      kind: 'recorded',
      eventId: first.eventId,
      outcome: 'applied',
      paymentId: locked.payment.id,
      status: locked.payment.status,
      forward: recorded.some((result) => result.forward === 'queued') ? 'queued' : first.forward,
      note: null,
    };
  }

  /**
   * A report of the payment itself (or a refund's of no payment): decided against its locked status, then
   * the event, its forward and the payment's move written in one statement (a duplicate writes nothing).
   */
  private async applyPaymentEventIn(tx: EntityManager, provider: string, event: ProviderEvent, context: ApplyContext, locked: PaymentLockedForEvent | null): Promise<AppliedIn> {
    const payment = locked?.payment ?? null;
    // A refund event for no payment is kept as unmatched like any other; it moves nothing.
    const decision = isRefundEvent(event.type)
      ? { outcome: 'unmatched' as const, target: null, note: 'No payment of this provider has this id.', paidAfterClose: false }
      : decideEvent(payment && { status: payment.status, amountCents: payment.amountCents, due: payment.due !== null }, { type: event.type, amountCents: event.amountCents });
    const applied = payment !== null && decision.outcome === 'applied' && decision.target !== null;
    const target = decision.target;
    const forwarded = isRefundEvent(event.type) ? null : event.type;
    const paidAt = payment && target === 'paid' ? (payment.paidAt ?? event.occurredAt) : (payment?.paidAt ?? null);
    const paidAfterClose = applied && decision.paidAfterClose;
    const recorded = await this.writer.record(
      tx,
      {
        provider,
        accountId: context.accountId ?? null,
        providerEventId: event.eventId,
        type: event.type,
        source: context.source,
        paymentId: payment?.id ?? null,
        merchantId: payment?.merchantId ?? null,
        outcome: decision.outcome,
        fromStatus: payment?.status ?? null,
        toStatus: target,
        amountCents: event.amountCents,
        note: decision.note,
        requestId: context.requestId,
        payload: context.payload,
        forward:
          applied && target && forwarded
            ? {
                type: forwarded,
                webhookUrl: locked!.webhookUrl,
                body: (eventId) => deliveryBody(eventId, forwarded, { ...payment, status: target, paidAt, paidAfterClose: payment.paidAfterClose || paidAfterClose }),
              }
            : undefined,
        move: applied && target ? { status: target, paidAt, pix: target === 'paid' ? event.pix : undefined, paidAfterClose } : undefined,
      },
      context.requestId,
    );
    if (!recorded) return { kind: 'duplicate' };
    if (applied && target === 'paid') await this.recordDueMismatch(tx, provider, event, context, payment);
    const base = { kind: 'recorded' as const, eventId: recorded.eventId, outcome: decision.outcome, forward: recorded.forward, note: decision.note };
    if (!payment) return { ...base, paymentId: null, status: null };
    if (!applied || !target) return { ...base, paymentId: payment.id, status: payment.status };
    if (!paidAfterClose) return { ...base, outcome: 'applied', paymentId: payment.id, status: target, note: null };
    await this.receivedAfterClose(tx, locked!, event, provider);
    return { ...base, outcome: 'applied', paymentId: payment.id, status: target, note: null, paidAfterClose: true };
  }

  /**
   * A due-date charge paid with more than a centavo's difference from what was due that day: paid
   * anyway (the money has moved), and the difference written to its history as `amount_mismatch`
   * beside the event that paid it, for an operator to see first (docs/due-charges.md).
   */
  private async recordDueMismatch(tx: EntityManager, provider: string, event: ProviderEvent, context: ApplyContext, payment: PaymentLockedForEvent['payment']): Promise<void> {
    const mismatch = dueMismatch(payment, event.pix?.paidAmountCents ?? event.amountCents, event.occurredAt);
    if (!mismatch) return;
    await this.writer.record(
      tx,
      {
        provider,
        accountId: context.accountId ?? null,
        providerEventId: `${event.eventId}:amount_mismatch`,
        type: event.type,
        source: context.source,
        paymentId: payment.id,
        merchantId: payment.merchantId,
        outcome: 'amount_mismatch',
        fromStatus: 'paid',
        toStatus: 'paid',
        amountCents: mismatch.paidCents,
        note: mismatch.note,
        requestId: context.requestId,
        payload: { paidCents: mismatch.paidCents, dueCents: mismatch.dueCents, on: mismatch.on },
      },
      context.requestId,
    );
  }

  /** Money received after the payment closed: refunded at once when the merchant asked for that (`refund_after_close`), and logged either way. */
  private async receivedAfterClose(tx: EntityManager, locked: PaymentLockedForEvent, event: ProviderEvent, provider: string): Promise<void> {
    const { payment } = locked;
    const refundId = locked.refundAfterClose ? await this.queueRefundAfterClose(tx, payment, event) : null;
    this.logger.warn(
      { payment_id: payment.id, merchant_id: payment.merchantId, provider, from_status: payment.status, refund_id: refundId },
      refundId
        ? 'A Pix was received after the payment was closed: it is refunded in full (refund_after_close)'
        : 'A Pix was received after the payment was closed: it needs refunding',
    );
  }

  /**
   * The merchant's `refund_after_close`: the whole payment goes back, queued in the transaction that
   * confirmed it (so it exists exactly when the confirmation does, once) and sent by the refunds'
   * own background job (RefundReconciliation sends a pending refund the PSP has no id for yet), never
   * in the callback's request. It is the merchant's own payment's money, asked back by the merchant's
   * setting: origin `merchant`, seen and reported to the merchant like any refund of theirs.
   */
  private async queueRefundAfterClose(tx: EntityManager, payment: PaymentLockedForEvent['payment'], event: ProviderEvent): Promise<string> {
    const now = this.clock.now();
    const refund = await this.refundRows.insert(tx, {
      id: newId('ref'),
      paymentId: payment.id,
      merchantId: payment.merchantId,
      origin: 'merchant',
      status: 'pending',
      amountCents: payment.amountCents,
      reason: `Received after the payment was ${payment.status}; refunded automatically (refund_after_close)`,
      provider: payment.provider,
      providerAccountId: payment.providerAccountId,
      txid: payment.txid,
      providerPaymentId: payment.providerPaymentId,
      endToEndId: payment.endToEndId ?? event.pix?.endToEndId ?? null,
      providerRefundId: null,
      attemptId: null,
      nextCheckAt: now,
      createdAt: now,
    });
    return refund.id;
  }
}

/** A refund's reports as the refund bookkeeping takes it. */
function refundReport(provider: string, event: ProviderEvent, context: ApplyContext): RefundReportContext {
  return {
    provider,
    accountId: context.accountId ?? null,
    eventId: event.eventId,
    type: event.type,
    source: context.source,
    requestId: context.requestId,
    payload: context.payload,
    refundId: context.refundId,
  };
}

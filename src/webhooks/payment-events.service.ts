import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../domain/clock';
import { newId } from '../common/ids';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { PaymentRepository } from '../payments/payment.repository';
import type { PaymentStatus } from '../domain/payment-status';
import { DELIVERY_NUDGE, type DeliveryNudge } from '../deliveries/delivery-nudge';
import { decideEvent } from './event-decision';
import { forwardBody } from './forward-body';
import type { EventForward, EventOutcome, EventSource } from './payment-event.entity';
import { PaymentEventRepository } from './payment-event.repository';
import { isRefundEvent, type ProviderEvent } from '../domain/provider-event';

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
}

export type ApplyResult =
  | { kind: 'duplicate' }
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
    };

/**
 * Applies provider events to payments: the one place a payment's status changes after creation.
 * Webhook intake and reconciliation both come through here, so the state machine, the amount check,
 * deduplication and the outbox write behave the same whichever way the news arrived.
 */
@Injectable()
export class PaymentEventsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly payments: PaymentRepository,
    private readonly events: PaymentEventRepository,
    private readonly deliveries: WebhookDeliveryRepository,
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
    return result;
  }

  private async applyIn(tx: EntityManager, provider: string, event: ProviderEvent, context: ApplyContext): Promise<ApplyResult> {
    const locked = await this.payments.lockForProviderEvent(tx, provider, event.paymentRef, context.accountId ?? null);
    const payment = locked?.payment ?? null;
    if (payment && context.onlyFromStatus && payment.status !== context.onlyFromStatus) return { kind: 'skipped', status: payment.status };

    if (isRefundEvent(event.type)) throw new Error('refund events are applied by the refunds bookkeeping');
    const decision = decideEvent(payment && { status: payment.status, amountCents: payment.amountCents }, { type: event.type, amountCents: event.amountCents });
    const applied = payment !== null && decision.outcome === 'applied';
    const forward: EventForward = !applied ? 'none' : locked?.webhookUrl ? 'queued' : 'no_webhook_url';
    const eventId = newId('evt');

    const createdAt = await this.events.insertUnlessDuplicate(tx, {
      id: eventId,
      provider,
      providerAccountId: context.accountId ?? null,
      providerEventId: event.eventId,
      type: event.type,
      source: context.source,
      paymentId: payment?.id ?? null,
      merchantId: payment?.merchantId ?? null,
      outcome: decision.outcome,
      fromStatus: payment?.status ?? null,
      toStatus: decision.target,
      amountCents: event.amountCents,
      forward,
      note: decision.note,
      requestId: context.requestId,
      payload: context.payload,
    });
    if (!createdAt) return { kind: 'duplicate' };
    if (!payment) return { kind: 'recorded', eventId, outcome: decision.outcome, paymentId: null, status: null, forward, note: decision.note };
    if (!applied) return { kind: 'recorded', eventId, outcome: decision.outcome, paymentId: payment.id, status: payment.status, forward, note: decision.note };

    const paidAt = decision.target === 'paid' ? (payment.paidAt ?? event.occurredAt) : payment.paidAt;
    await this.payments.setStatus(tx, payment.id, decision.target, paidAt, createdAt, decision.target === 'paid' ? event.pix : undefined);
    if (forward === 'queued') {
      const body = forwardBody(eventId, event.type, createdAt, {
        id: payment.id,
        amountCents: payment.amountCents,
        status: decision.target,
        externalId: payment.externalId,
        provider: payment.provider,
        paidAt,
      });
      await this.deliveries.enqueue(tx, {
        id: newId('dlv'),
        eventId,
        merchantId: payment.merchantId,
        paymentId: payment.id,
        eventType: event.type,
        requestId: context.requestId,
        body,
        at: createdAt,
        // Due at once by the Clock the delivery worker judges due-ness by.
        dueAt: this.clock.now(),
      });
    }
    return { kind: 'recorded', eventId, outcome: 'applied', paymentId: payment.id, status: decision.target, forward, note: null };
  }
}

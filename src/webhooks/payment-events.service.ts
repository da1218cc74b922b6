import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../common/ids';
import { sqlRows } from '../database/sql';
import type { PaymentStatus } from '../payments/payment-status';
import type { ProviderEvent } from '../providers/payment-provider';
import { DELIVERY_NUDGE, type DeliveryNudge } from './delivery-nudge';
import { decideEvent } from './event-decision';
import { forwardBody } from './forward-body';
import type { EventForward, EventOutcome, EventSource } from './payment-event.entity';

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

interface LockedPayment {
  id: string;
  merchant_id: string;
  status: PaymentStatus;
  amount_cents: string;
  external_id: string;
  provider: string;
  paid_at: Date | null;
  webhook_url: string | null;
}

/**
 * Applies provider events to payments: the one place a payment's status changes after creation.
 * Webhook intake and reconciliation both come through here, so the state machine, the amount check,
 * deduplication and the outbox write behave the same whichever way the news arrived.
 */
@Injectable()
export class PaymentEventsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() @Inject(DELIVERY_NUDGE) private readonly delivery?: DeliveryNudge,
  ) {}

  /**
   * One transaction: lock the payment, store the event (deduplicated by the unique index on
   * (provider, provider_event_id)), move the payment and queue the merchant's delivery. The payment
   * lock comes first so that events for one payment are decided one after another against its
   * latest status; ON CONFLICT DO NOTHING settles identical events racing each other (the later
   * INSERT waits for the earlier transaction and then inserts nothing).
   */
  async apply(provider: string, event: ProviderEvent, context: ApplyContext): Promise<ApplyResult> {
    const result = await this.dataSource.transaction((manager) => this.applyIn(manager, provider, event, context));
    if (result.kind === 'recorded' && result.forward === 'queued') this.delivery?.nudge();
    return result;
  }

  private async applyIn(manager: EntityManager, provider: string, event: ProviderEvent, context: ApplyContext): Promise<ApplyResult> {
    const payment = await this.lockPayment(manager, provider, event.paymentRef);
    if (payment && context.onlyFromStatus && payment.status !== context.onlyFromStatus) return { kind: 'skipped', status: payment.status };

    const decision = decideEvent(payment && { status: payment.status, amountCents: Number(payment.amount_cents) }, event);
    const applied = payment !== null && decision.outcome === 'applied';
    const forward: EventForward = !applied ? 'none' : payment.webhook_url ? 'queued' : 'no_webhook_url';
    const eventId = newId('evt');

    // clock_timestamp(), not now(): taken after the lock, so a payment's history sorts in the order
    // its events were decided even when their transactions began in another order.
    const inserted = await sqlRows<{ created_at: Date }>(
      manager,
      `INSERT INTO payment_events (id, provider, provider_event_id, type, source, payment_id, merchant_id, outcome,
                                   from_status, to_status, amount_cents, forward, note, request_id, payload, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, clock_timestamp())
       ON CONFLICT (provider, provider_event_id) DO NOTHING
       RETURNING created_at`,
      [
        eventId, provider, event.eventId, event.type, context.source, payment?.id ?? null, payment?.merchant_id ?? null, decision.outcome,
        payment?.status ?? null, decision.target, event.amountCents, forward, decision.note, context.requestId, JSON.stringify(context.payload ?? null),
      ],
    );
    if (!inserted[0]) return { kind: 'duplicate' };
    if (!payment) return { kind: 'recorded', eventId, outcome: decision.outcome, paymentId: null, status: null, forward, note: decision.note };
    if (!applied) return { kind: 'recorded', eventId, outcome: decision.outcome, paymentId: payment.id, status: payment.status, forward, note: decision.note };

    const createdAt = inserted[0].created_at;
    const paidAt = decision.target === 'paid' ? (payment.paid_at ?? event.occurredAt) : payment.paid_at;
    await manager.query(`UPDATE payments SET status = $2, paid_at = $3, updated_at = $4 WHERE id = $1`, [payment.id, decision.target, paidAt, createdAt]);
    if (forward === 'queued') {
      const body = forwardBody(eventId, event.type, createdAt, {
        id: payment.id,
        amountCents: Number(payment.amount_cents),
        status: decision.target,
        externalId: payment.external_id,
        provider: payment.provider,
        paidAt,
      });
      await manager.query(
        `INSERT INTO webhook_deliveries (id, event_id, merchant_id, payment_id, event_type, request_id, body, status, next_attempt_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 'pending', $8, $8, $8)`,
        [newId('dlv'), eventId, payment.merchant_id, payment.id, event.type, context.requestId, JSON.stringify(body), createdAt],
      );
    }
    return { kind: 'recorded', eventId, outcome: 'applied', paymentId: payment.id, status: decision.target, forward, note: null };
  }

  /**
   * The payment `ref` names, by the gateway's id or the provider's, always within this provider:
   * an event from one provider (the sandbox accepts unsigned ones in development) must never move
   * a payment held at another.
   */
  private async lockPayment(manager: EntityManager, provider: string, ref: string): Promise<LockedPayment | null> {
    const rows = await sqlRows<LockedPayment>(
      manager,
      `SELECT p.id, p.merchant_id, p.status, p.amount_cents, p.external_id, p.provider, p.paid_at, m.webhook_url
         FROM payments p JOIN merchants m ON m.id = p.merchant_id
        WHERE p.provider = $1 AND (p.id = $2 OR p.provider_payment_id = $2)
        ORDER BY (p.id = $2) DESC
        LIMIT 1
          FOR UPDATE OF p`,
      [provider, ref],
    );
    return rows[0] ?? null;
  }
}

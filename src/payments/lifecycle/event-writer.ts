import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { newId } from '../../common/ids';
import { Clock } from '../../domain/clock';
import type { MerchantEventType } from '../../domain/provider-event';
import type { UndatedDeliveryBody } from './delivery-body';
import type { EventForward, EventOutcome, EventSource } from './payment-event.entity';
import { PaymentEventRepository, type PaymentMove } from './payment-event.repository';

/** One row of a payment's history, and what the merchant is told about it (if anything). */
export interface EventRecord {
  provider: string;
  accountId: string | null;
  /** The provider's event id, or one derived from it for the events an event leads to (`<id>#payment`). */
  providerEventId: string;
  type: string;
  source: EventSource;
  paymentId: string | null;
  merchantId: string | null;
  outcome: EventOutcome;
  fromStatus: string | null;
  toStatus: string | null;
  amountCents: number | null;
  note: string | null;
  requestId: string;
  payload: unknown;
  refundId?: string | null;
  /** What the merchant receives, when the event is applied and forwarded: its type, and its body given the gateway's event id. */
  forward?: { type: MerchantEventType; webhookUrl: string | null; body: (eventId: string) => UndatedDeliveryBody };
  /** The payment's new status, when the event moves it: written with the event (the payment is locked by the caller). */
  move?: PaymentMove;
}

export interface Recorded {
  eventId: string;
  createdAt: Date;
  forward: EventForward;
}

/**
 * Writes events and their deliveries (the transactional outbox): inside the caller's transaction,
 * after it locked the payment. The unique index on (provider, provider_account_id,
 * provider_event_id) makes the same report told twice one row; null means it was a duplicate.
 */
@Injectable()
export class EventWriter {
  constructor(
    private readonly events: PaymentEventRepository,
    private readonly clock: Clock,
  ) {}

  /** One statement: the event, its delivery and the payment's move (PaymentEventRepository.insertWithOutbox). */
  async record(tx: EntityManager, record: EventRecord, requestId: string): Promise<Recorded | null> {
    const eventId = newId('evt');
    const forward: EventForward = !record.forward ? 'none' : record.forward.webhookUrl ? 'queued' : 'no_webhook_url';
    const delivery =
      forward === 'queued' && record.forward && record.paymentId && record.merchantId
        ? {
            id: newId('dlv'),
            eventType: record.forward.type,
            requestId,
            body: record.forward.body(eventId),
            // Due at once by the Clock the delivery worker judges due-ness by.
            dueAt: this.clock.now(),
          }
        : null;
    const createdAt = await this.events.insertWithOutbox(
      tx,
      {
        id: eventId,
        provider: record.provider,
        providerAccountId: record.accountId,
        providerEventId: record.providerEventId,
        type: record.type,
        source: record.source,
        paymentId: record.paymentId,
        merchantId: record.merchantId,
        outcome: record.outcome,
        fromStatus: record.fromStatus,
        toStatus: record.toStatus,
        amountCents: record.amountCents,
        forward,
        note: record.note,
        requestId: record.requestId,
        payload: record.payload,
        refundId: record.refundId ?? null,
      },
      delivery,
      record.paymentId ? (record.move ?? null) : null,
    );
    if (!createdAt) return null;
    return { eventId, createdAt, forward };
  }
}

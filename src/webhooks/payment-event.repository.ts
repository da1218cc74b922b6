import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { sqlRows } from '../database/sql';
import { PaymentEvent } from './payment-event.entity';

/** Every query of the `payment_events` table. */
@Injectable()
export class PaymentEventRepository {
  constructor(@InjectRepository(PaymentEvent) private readonly events: Repository<PaymentEvent>) {}

  /**
   * Stores the event unless one with the same (provider, provider_account_id, provider_event_id) exists: the unique
   * index settles identical events racing each other (the later INSERT waits for the earlier
   * transaction and then inserts nothing). Returns the stored time, or null for a duplicate.
   * `created_at` is clock_timestamp(), not now(): taken after the payment lock, so a payment's
   * history sorts in the order its events were decided even when their transactions began in
   * another order.
   */
  async insertUnlessDuplicate(tx: EntityManager, event: Omit<PaymentEvent, 'createdAt' | 'refundId'> & { refundId?: string | null }): Promise<Date | null> {
    const inserted = await sqlRows<{ created_at: Date }>(
      tx,
      `INSERT INTO payment_events (id, provider, provider_event_id, type, source, payment_id, merchant_id, outcome,
                                   from_status, to_status, amount_cents, forward, note, request_id, payload, provider_account_id, refund_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16, $17, clock_timestamp())
       ON CONFLICT (provider, provider_account_id, provider_event_id) DO NOTHING
       RETURNING created_at`,
      [
        event.id,
        event.provider,
        event.providerEventId,
        event.type,
        event.source,
        event.paymentId,
        event.merchantId,
        event.outcome,
        event.fromStatus,
        event.toStatus,
        event.amountCents,
        event.forward,
        event.note,
        event.requestId,
        JSON.stringify(event.payload ?? null),
        event.providerAccountId,
        event.refundId ?? null,
      ],
    );
    return inserted[0]?.created_at ?? null;
  }

  /** A payment's history, in the order its events were decided. */
  listForPayment(paymentId: string): Promise<PaymentEvent[]> {
    return this.events.find({ where: { paymentId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}

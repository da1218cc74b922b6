import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { sqlRows } from '../../database/sql';
import type { PaymentStatus } from '../../domain/payment-status';
import type { PixPaymentDetails } from '../../domain/provider-event';
import { PaymentEvent } from './payment-event.entity';

/**
 * The merchant's forward of an event, queued with it: due at `dueAt` (the gateway's Clock, which
 * the delivery worker judges due-ness by). `body` is all but its `created_at`, which is the event
 * row's time and is filled in by the statement that stores both.
 */
export interface OutboxDelivery {
  id: string;
  eventType: string;
  requestId: string;
  body: object;
  dueAt: Date;
}

/** What an applied event does to its payment. */
export interface PaymentMove {
  status: PaymentStatus;
  paidAt: Date | null;
  /** What the PSP confirmed about the paying Pix (a confirmation from a real PSP). */
  pix?: PixPaymentDetails;
  /** Paid after the payment was cancelled or expired (docs/api.md, States): set on the payment, never cleared. */
  paidAfterClose?: boolean;
}

/** Every query of the `payment_events` table. */
@Injectable()
export class PaymentEventRepository {
  constructor(@InjectRepository(PaymentEvent) private readonly events: Repository<PaymentEvent>) {}

  /**
   * Stores the event unless one with the same (provider, provider_account_id, provider_event_id)
   * exists, and with it, in the same statement, the merchant's delivery (the transactional outbox)
   * and the payment's move, so applying an event costs one round trip rather than three. The unique
   * index settles identical events racing each other (the later INSERT waits for the earlier
   * transaction and then inserts nothing); a duplicate writes nothing else either, since the
   * delivery and the move are made from the inserted row. Returns the stored time, or null for a
   * duplicate.
   *
   * `created_at` is clock_timestamp(), not now(): taken after the payment lock, so a payment's
   * history sorts in the order its events were decided even when their transactions began in
   * another order. The delivery's times, the payment's `updated_at` and the body's `created_at`
   * are that time cut to milliseconds, the precision a JavaScript Date reads it back with.
   *
   * The move is for a payment the caller holds locked (PaymentRepository.lockForProviderEvent); the
   * Pix details the PSP confirmed are kept, and details already recorded are never overwritten.
   */
  async insertWithOutbox(
    tx: EntityManager,
    event: Omit<PaymentEvent, 'createdAt' | 'refundId'> & { refundId?: string | null },
    delivery: OutboxDelivery | null,
    move: PaymentMove | null,
  ): Promise<Date | null> {
    const pix = move?.pix;
    const inserted = await sqlRows<{ created_at: Date }>(
      tx,
      `WITH event AS (
         INSERT INTO payment_events (id, provider, provider_event_id, type, source, payment_id, merchant_id, outcome,
                                     from_status, to_status, amount_cents, forward, note, request_id, payload, provider_account_id, refund_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16, $17, clock_timestamp())
         ON CONFLICT (provider, provider_account_id, provider_event_id) DO NOTHING
         RETURNING id, payment_id, merchant_id, created_at, date_trunc('milliseconds', created_at) AS at
       ), delivery AS (
         INSERT INTO webhook_deliveries (id, event_id, merchant_id, payment_id, event_type, request_id, body, status, next_attempt_at, created_at, updated_at)
         SELECT $18::text, e.id, e.merchant_id, e.payment_id, $19::text, $20::text,
                jsonb_set($21::jsonb, '{created_at}', to_jsonb(to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
                'pending', $22::timestamptz, e.at, e.at
           FROM event e
          WHERE $18::text IS NOT NULL
       ), moved AS (
         UPDATE payments p
            SET status = $23::text, paid_at = $24::timestamptz, updated_at = e.at,
                end_to_end_id = coalesce(p.end_to_end_id, $25::text), paid_amount_cents = coalesce(p.paid_amount_cents, $26::bigint),
                payer_name = coalesce(p.payer_name, $27::text), payer_document_masked = coalesce(p.payer_document_masked, $28::text),
                paid_after_close = p.paid_after_close OR $29::boolean
           FROM event e
          WHERE p.id = e.payment_id AND $23::text IS NOT NULL
       )
       SELECT created_at FROM event`,
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
        delivery?.id ?? null,
        delivery?.eventType ?? null,
        delivery?.requestId ?? null,
        delivery ? JSON.stringify(delivery.body) : null,
        delivery?.dueAt ?? null,
        move?.status ?? null,
        move?.paidAt ?? null,
        pix?.endToEndId ?? null,
        pix?.paidAmountCents ?? null,
        pix?.payer?.name ?? null,
        pix?.payer?.documentMasked ?? null,
        move?.paidAfterClose ?? false,
      ],
    );
    return inserted[0]?.created_at ?? null;
  }

  /** A payment's history, in the order its events were decided. */
  listForPayment(paymentId: string): Promise<PaymentEvent[]> {
    return this.events.find({ where: { paymentId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}

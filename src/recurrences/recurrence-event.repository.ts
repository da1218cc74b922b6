import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { sqlRows } from '../database/sql';
import { RecurrenceEvent } from './recurrence-event.entity';

/** The merchant's forward of an event, queued with it (as PaymentEventRepository's OutboxDelivery). */
export interface RecurrenceOutboxDelivery {
  id: string;
  eventType: string;
  requestId: string;
  /** All but `created_at`, which is the event row's time, filled in by the statement. */
  body: object;
  dueAt: Date;
}

/** Every query of the `recurrence_events` table. */
@Injectable()
export class RecurrenceEventRepository {
  constructor(@InjectRepository(RecurrenceEvent) private readonly events: Repository<RecurrenceEvent>) {}

  /**
   * Stores the event unless the same (provider, account, provider_event_id) exists, and with it,
   * in the same statement, the merchant's delivery (the transactional outbox), inside the caller's
   * transaction, which holds the recurrence or charge locked. Null for a duplicate, which writes nothing.
   */
  async insertWithOutbox(tx: EntityManager, event: Omit<RecurrenceEvent, 'createdAt'>, delivery: RecurrenceOutboxDelivery | null): Promise<Date | null> {
    const rows = await sqlRows<{ created_at: Date }>(
      tx,
      `WITH event AS (
         INSERT INTO recurrence_events (id, provider, provider_account_id, provider_event_id, type, source, recurrence_id, recurring_charge_id,
                                        merchant_id, from_status, to_status, forward, note, request_id, payload, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, clock_timestamp())
         ON CONFLICT (provider, provider_account_id, provider_event_id) DO NOTHING
         RETURNING id, merchant_id, recurrence_id, created_at, date_trunc('milliseconds', created_at) AS at
       ), delivery AS (
         INSERT INTO webhook_deliveries (id, event_id, merchant_id, recurrence_id, event_type, request_id, body, status, next_attempt_at, created_at, updated_at)
         SELECT $16::text, e.id, e.merchant_id, e.recurrence_id, $17::text, $18::text,
                jsonb_set($19::jsonb, '{created_at}', to_jsonb(to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
                'pending', $20::timestamptz, e.at, e.at
           FROM event e
          WHERE $16::text IS NOT NULL
       )
       SELECT created_at FROM event`,
      [
        event.id,
        event.provider,
        event.providerAccountId,
        event.providerEventId,
        event.type,
        event.source,
        event.recurrenceId,
        event.recurringChargeId,
        event.merchantId,
        event.fromStatus,
        event.toStatus,
        event.forward,
        event.note,
        event.requestId,
        JSON.stringify(event.payload ?? null),
        delivery?.id ?? null,
        delivery?.eventType ?? null,
        delivery?.requestId ?? null,
        delivery ? JSON.stringify(delivery.body) : null,
        delivery?.dueAt ?? null,
      ],
    );
    return rows[0]?.created_at ?? null;
  }

  /** A recurrence's history (its charges' included), in the order decided. */
  listForRecurrence(recurrenceId: string): Promise<RecurrenceEvent[]> {
    return this.events.find({ where: { recurrenceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }
}

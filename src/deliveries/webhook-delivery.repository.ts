import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { sqlRows } from '../database/sql';
import { WebhookDelivery } from './webhook-delivery.entity';

/** A forward to queue, in the transaction that applied its event (the transactional outbox). */
export type NewDelivery = Pick<WebhookDelivery, 'id' | 'eventId' | 'merchantId' | 'paymentId' | 'eventType' | 'requestId' | 'body'> & { at: Date };

/** Every query of the `webhook_deliveries` table. */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>) {}

  /** Queues a delivery, due at once, inside the caller's transaction. */
  async enqueue(tx: EntityManager, delivery: NewDelivery): Promise<void> {
    await tx.query(
      `INSERT INTO webhook_deliveries (id, event_id, merchant_id, payment_id, event_type, request_id, body, status, next_attempt_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, 'pending', $8, $8, $8)`,
      [delivery.id, delivery.eventId, delivery.merchantId, delivery.paymentId, delivery.eventType, delivery.requestId, JSON.stringify(delivery.body), delivery.at],
    );
  }

  /** A payment's deliveries, oldest first. */
  listForPayment(paymentId: string): Promise<WebhookDelivery[]> {
    return this.deliveries.find({ where: { paymentId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  // Dashboard statistics

  /** How many deliveries wait for their next attempt, and how many exhausted their retries. */
  async countBacklog(): Promise<DeliveryBacklog> {
    const rows = await sqlRows<{ status: string; count: number }>(
      this.deliveries.manager,
      `SELECT status, count(*)::int AS count FROM webhook_deliveries WHERE status IN ('failed', 'pending') GROUP BY status`,
    );
    return {
      failed: rows.find((row) => row.status === 'failed')?.count ?? 0,
      pending: rows.find((row) => row.status === 'pending')?.count ?? 0,
    };
  }
}

// Dashboard statistics: result types

export interface DeliveryBacklog {
  pending: number;
  failed: number;
}

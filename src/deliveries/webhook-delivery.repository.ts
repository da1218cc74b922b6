import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { afterCursorSql, CursorPosition, microsecondsSql } from '../common/http/cursor';
import { newId } from '../common/ids';
import { hydrate, sqlRows } from '../database/sql';
import type { Merchant } from '../merchants/merchant.entity';
import type { DeliveryBacklog } from '../metrics/gateway-metrics';
import type { AttemptOutcome, AttemptResult } from './attempt-outcome';
import { DeliveryStatus, WebhookDelivery } from './webhook-delivery.entity';

/**
 * A delivery this process holds until `lockedUntil`, with what is needed to send it: the merchant's
 * URL and secret now, not when the event arrived (a fixed URL helps the next retry), and the
 * provider the payment is held at.
 */
export type ClaimedDelivery = Pick<WebhookDelivery, 'id' | 'eventType' | 'requestId' | 'body' | 'attempts' | 'paymentId' | 'recurrenceId' | 'batchId' | 'merchantId'> & {
  /** The lease, also the fencing token when the attempt is recorded. */
  lockedUntil: Date;
} & Pick<Merchant, 'webhookUrl' | 'webhookSigningSecretEnc'> & {
    /** The provider the payment (or recurrence, or batch) is held at: the envelope's `provider` of the forward. */
    provider: string;
  };

/** One finished attempt of a claimed delivery, and what it decided. */
export interface RecordedAttempt {
  claim: ClaimedDelivery;
  /** This attempt's number (1 for the first). */
  attempt: number;
  attemptedAt: Date;
  url: string | null;
  result: AttemptResult;
  outcome: AttemptOutcome;
}

/** A status, or `retrying`: pending after at least one failed attempt. */
export type DeliveryListStatus = DeliveryStatus | 'retrying';

export interface DeliveryListFilter {
  status?: DeliveryListStatus;
  merchantId?: string;
  after?: CursorPosition;
  limit: number;
}

/** A delivery as the operator lists it (without its body and lease), with its merchant's name and webhook URL now. */
export interface DeliveryWithMerchant {
  delivery: Omit<WebhookDelivery, 'body' | 'lockedUntil'>;
  merchant: Pick<Merchant, 'name' | 'webhookUrl'>;
}

const WITH_MERCHANT = `
  SELECT d.id, d.status, d.event_type, d.event_id, d.payment_id, d.recurrence_id, d.batch_id, d.merchant_id, d.attempts, d.next_attempt_at, d.last_status_code,
         d.last_error, d.delivered_at, d.request_id, d.created_at, d.updated_at,
         m.name AS m_name, m.webhook_url AS m_webhook_url, ${microsecondsSql('d.created_at')} AS created_us
    FROM webhook_deliveries d JOIN merchants m ON m.id = d.merchant_id`;

/** Every query of the `webhook_deliveries` table. */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>) {}

  // Deliveries are queued with their event, by the statement that stores it
  // (PaymentEventRepository.insertWithOutbox): one round trip for the whole outbox.

  /** A payment's deliveries, oldest first. */
  listForPayment(paymentId: string): Promise<WebhookDelivery[]> {
    return this.deliveries.find({ where: { paymentId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** A recurrence's deliveries (its charges' included), oldest first. */
  listForRecurrence(recurrenceId: string): Promise<WebhookDelivery[]> {
    return this.deliveries.find({ where: { recurrenceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** A payment batch's deliveries (its `payment_batch.completed`), oldest first. */
  listForBatch(batchId: string): Promise<WebhookDelivery[]> {
    return this.deliveries.find({ where: { batchId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  // Delivery worker: two statements. Neither holds a transaction across the HTTP call, so the
  // embedded database's single connection is never tied up waiting for a merchant; and each handles
  // many deliveries at once, so the database work per forward stays small at hundreds per second.

  /**
   * Claims (FOR UPDATE SKIP LOCKED, then a lease of `leaseMs`) up to `limit` deliveries due at `now`.
   * Due-ness is judged by the gateway's Clock (`now`); the lease by the database's now(), which
   * every process shares. SKIP LOCKED lets several processes claim side by side without waiting on
   * or taking each other's rows; the lease keeps a claimed row away from them after this statement
   * commits, until it is recorded or, if this process dies, until the lease lapses and another
   * process retries it (at-least-once). The lease is cut to milliseconds so it survives the round
   * trip through a JavaScript Date.
   */
  async claimDueSkipLocked(limit: number, leaseMs: number, now: Date): Promise<ClaimedDelivery[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.deliveries.manager,
      `WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE status = 'pending' AND next_attempt_at <= $3 AND (locked_until IS NULL OR locked_until < now())
          ORDER BY next_attempt_at
          LIMIT $1
            FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries d
          SET locked_until = date_trunc('milliseconds', now()) + make_interval(secs => $2::double precision / 1000)
         FROM due, merchants m
        WHERE d.id = due.id AND m.id = d.merchant_id
       RETURNING d.id, d.event_type, d.request_id, d.body, d.attempts, d.locked_until, d.payment_id, d.recurrence_id, d.batch_id, d.merchant_id,
                 m.webhook_url AS m_webhook_url, m.webhook_signing_secret_enc AS m_webhook_signing_secret_enc,
                 coalesce((SELECT p.provider FROM payments p WHERE p.id = d.payment_id),
                          (SELECT r.provider FROM recurrences r WHERE r.id = d.recurrence_id),
                          (SELECT b.provider FROM payment_batches b WHERE b.id = d.batch_id)) AS p_provider`,
      [limit, leaseMs, now],
    );
    return rows.map((row) => {
      const { id, eventType, requestId, body, attempts, lockedUntil, paymentId, recurrenceId, batchId, merchantId } = hydrate(this.deliveries.manager, WebhookDelivery, row);
      return {
        id,
        eventType,
        requestId,
        body,
        attempts,
        paymentId,
        recurrenceId,
        batchId,
        merchantId,
        lockedUntil: lockedUntil!,
        webhookUrl: row.m_webhook_url as string | null,
        webhookSigningSecretEnc: row.m_webhook_signing_secret_enc as string | null,
        provider: row.p_provider as string,
      };
    });
  }

  /**
   * Records the attempts, and moves each delivery on only if its lease is still held (fencing: the
   * delivery still carries the `lockedUntil` it was claimed with); all in one statement, so one
   * transaction and one round trip however many attempts finished together. If a lease lapsed (a
   * stalled process) and another process took the delivery, that process decides its state, and
   * this attempt is only added to the history. The next attempt is placed at `now` (the gateway's
   * Clock) plus the outcome's wait. Returns the ids of the deliveries that were moved on.
   */
  async recordAttemptsIfLeaseHeld(attempts: RecordedAttempt[], now: Date): Promise<Set<string>> {
    if (attempts.length === 0) return new Set();
    const column = <T>(pick: (a: RecordedAttempt) => T): T[] => attempts.map(pick);
    const rows = await sqlRows<Pick<WebhookDelivery, 'id'>>(
      this.deliveries.manager,
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::int8[], $5::int[], $6::text[],
                              $7::text[], $8::int[], $9::text[], $10::int[], $11::timestamptz[], $13::text[])
             AS i(delivery_id, lease, status, retry_in_ms, status_code, error, attempt_id, attempt, url, latency_ms, attempted_at, response_excerpt)
       ), moved AS (
         UPDATE webhook_deliveries d
            SET status = i.status, attempts = d.attempts + 1, locked_until = NULL,
                next_attempt_at = CASE WHEN i.retry_in_ms IS NULL THEN $12::timestamptz ELSE $12::timestamptz + i.retry_in_ms * interval '1 millisecond' END,
                last_status_code = i.status_code, last_error = i.error,
                delivered_at = CASE WHEN i.status = 'delivered' THEN now() ELSE d.delivered_at END,
                updated_at = now()
           FROM input i
          WHERE d.id = i.delivery_id AND d.locked_until = i.lease
         RETURNING d.id
       ), logged AS (
         INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, url, status_code, latency_ms, error, attempted_at, response_excerpt)
         SELECT attempt_id, delivery_id, attempt, url, status_code, latency_ms, error, attempted_at, response_excerpt FROM input
       )
       SELECT id FROM moved`,
      [
        column((a) => a.claim.id),
        column((a) => a.claim.lockedUntil),
        column((a) => a.outcome.status),
        column((a) => a.outcome.retryInMs),
        column((a) => a.result.statusCode),
        column((a) => a.outcome.error),
        column(() => newId('att')),
        column((a) => a.attempt),
        column((a) => a.url),
        column((a) => a.result.latencyMs),
        column((a) => a.attemptedAt),
        now,
        column((a) => a.result.bodyExcerpt ?? null),
      ],
    );
    return new Set(rows.map((row) => row.id));
  }

  // Admin

  /**
   * Deliveries newest first: `limit + 1` rows from the cursor on, each with its merchant and exact
   * position (served by the (status, created_at, id) index when filtered by status).
   */
  async listPageWithMerchant(filter: DeliveryListFilter): Promise<(DeliveryWithMerchant & { id: string; created_us: string })[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    // Retrying: every attempt of a pending delivery failed (a success makes it delivered).
    if (filter.status === 'retrying') where.push(`d.status = 'pending' AND d.attempts > 0`);
    else if (filter.status) where.push(`d.status = $${params.push(filter.status)}`);
    if (filter.merchantId) where.push(`d.merchant_id = $${params.push(filter.merchantId)}`);
    if (filter.after) where.push(afterCursorSql('d.created_at', 'd.id', `$${params.push(filter.after.createdUs)}`, `$${params.push(filter.after.id)}`));
    const rows = await sqlRows<Record<string, unknown>>(
      this.deliveries.manager,
      `${WITH_MERCHANT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY d.created_at DESC, d.id DESC LIMIT $${params.push(filter.limit + 1)}`,
      params,
    );
    return rows.map((row) => ({ ...this.withMerchant(row), id: row.id as string, created_us: row.created_us as string }));
  }

  async findWithMerchant(id: string): Promise<DeliveryWithMerchant | null> {
    const [row] = await sqlRows<Record<string, unknown>>(this.deliveries.manager, `${WITH_MERCHANT} WHERE d.id = $1`, [id]);
    return row ? this.withMerchant(row) : null;
  }

  /** The body a delivery sends (the operator's "payload"), or undefined when there is no such delivery. */
  async findBody(id: string): Promise<{ body: unknown } | undefined> {
    const found = await this.deliveries.findOne({ where: { id }, select: { id: true, body: true } });
    return found ? { body: found.body } : undefined;
  }

  /**
   * Where and how a merchant's test event goes: its webhook URL and sealed signing secret now. Read
   * here, beside the claim that reads the same columns for real deliveries, so the merchants module
   * keeps its rule that the secret is never read back by the admin API.
   */
  async findMerchantTarget(merchantId: string): Promise<Pick<Merchant, 'id' | 'webhookUrl' | 'webhookSigningSecretEnc'> | null> {
    const [row] = await sqlRows<{ id: string; webhook_url: string | null; webhook_signing_secret_enc: string | null }>(
      this.deliveries.manager,
      `SELECT id, webhook_url, webhook_signing_secret_enc FROM merchants WHERE id = $1`,
      [merchantId],
    );
    return row ? { id: row.id, webhookUrl: row.webhook_url, webhookSigningSecretEnc: row.webhook_signing_secret_enc } : null;
  }

  /**
   * Makes the delivery pending and due at `dueAt`, whatever its state; its attempt history stays,
   * and an attempt in flight keeps its lease. False when there is no such delivery.
   */
  async requeue(id: string, dueAt: Date): Promise<boolean> {
    const updated = await sqlRows<Pick<WebhookDelivery, 'id'>>(
      this.deliveries.manager,
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $2, updated_at = now() WHERE id = $1 RETURNING id`,
      [id, dueAt],
    );
    return updated.length > 0;
  }

  // Metrics

  /** The backlog /metrics reports: deliveries still pending, across every merchant, and the age of the oldest (database time). */
  async backlog(): Promise<DeliveryBacklog> {
    const [row] = await sqlRows<{ waiting: string | number; oldest_age: string | number | null }>(
      this.deliveries.manager,
      `SELECT count(*) AS waiting, EXTRACT(EPOCH FROM (now() - min(created_at))) AS oldest_age
         FROM webhook_deliveries WHERE status = 'pending'`,
    );
    return { waiting: Number(row?.waiting ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.oldest_age ?? 0)) };
  }

  private withMerchant(row: Record<string, unknown>): DeliveryWithMerchant {
    return {
      delivery: hydrate(this.deliveries.manager, WebhookDelivery, row),
      merchant: { name: row.m_name as string, webhookUrl: row.m_webhook_url as string | null },
    };
  }

  // Dashboard statistics

  /** How many deliveries wait for their next attempt, and how many exhausted their retries. */
  async countBacklog(): Promise<DeliveryStatusCounts> {
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

export interface DeliveryStatusCounts {
  pending: number;
  failed: number;
}

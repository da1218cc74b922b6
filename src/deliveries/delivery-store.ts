import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { newId } from '../common/ids';
import { sqlRows } from '../database/sql';
import type { AttemptOutcome, AttemptResult } from './attempt-outcome';

/** A delivery this process holds until `leaseUntil`, with what is needed to send it. */
export interface ClaimedDelivery {
  id: string;
  eventType: string;
  requestId: string;
  body: unknown;
  /** Attempts recorded before this one. */
  attempts: number;
  /** The lease, also the fencing token when the attempt is recorded. */
  leaseUntil: Date;
  /** The merchant's URL and secret now, not when the event arrived: a fixed URL helps the next retry. */
  webhookUrl: string | null;
  signingSecretEnc: string | null;
  provider: string;
}

interface ClaimRow {
  id: string;
  event_type: string;
  request_id: string;
  body: unknown;
  attempts: number;
  locked_until: Date;
  webhook_url: string | null;
  webhook_signing_secret_enc: string | null;
  provider: string;
}

export interface RecordedAttempt {
  claim: ClaimedDelivery;
  attempt: number;
  attemptedAt: Date;
  url: string | null;
  result: AttemptResult;
  outcome: AttemptOutcome;
}

/**
 * The delivery worker's two statements. Neither holds a transaction across the HTTP call, so the
 * embedded database's single connection is never tied up waiting for a merchant; and each handles
 * many deliveries at once, so the database work per forward stays small at hundreds per second.
 */
@Injectable()
export class DeliveryStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes up to `limit` due deliveries and leases them for `leaseMs`. SKIP LOCKED lets several
   * processes claim side by side without waiting on or taking each other's rows; the lease keeps
   * a claimed row away from them after this statement commits, until it is recorded or, if this
   * process dies, until the lease lapses and another process retries it (at-least-once).
   * The lease is cut to milliseconds so it survives the round trip through a JavaScript Date.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const rows = await sqlRows<ClaimRow>(
      this.dataSource,
      `WITH due AS (
         SELECT id FROM webhook_deliveries
          WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
          ORDER BY next_attempt_at
          LIMIT $1
            FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries d
          SET locked_until = date_trunc('milliseconds', now()) + make_interval(secs => $2::double precision / 1000)
         FROM due, merchants m, payments p
        WHERE d.id = due.id AND m.id = d.merchant_id AND p.id = d.payment_id
       RETURNING d.id, d.event_type, d.request_id, d.body, d.attempts, d.locked_until, m.webhook_url, m.webhook_signing_secret_enc, p.provider`,
      [limit, leaseMs],
    );
    return rows.map((row) => ({
      id: row.id,
      eventType: row.event_type,
      requestId: row.request_id,
      body: row.body,
      attempts: row.attempts,
      leaseUntil: row.locked_until,
      webhookUrl: row.webhook_url,
      signingSecretEnc: row.webhook_signing_secret_enc,
      provider: row.provider,
    }));
  }

  /**
   * Keeps each attempt and moves its delivery on, all in one statement (so one transaction and one
   * round trip however many attempts finished together). A delivery is only updated while this
   * process still holds the lease it claimed with: if the lease lapsed (a stalled process) and
   * another process took the delivery, that process decides its state, and this attempt is only
   * added to the history. Returns the ids of the deliveries that were updated.
   */
  async record(attempts: RecordedAttempt[]): Promise<Set<string>> {
    if (attempts.length === 0) return new Set();
    const column = <T>(pick: (a: RecordedAttempt) => T): T[] => attempts.map(pick);
    const rows = await sqlRows<{ id: string }>(
      this.dataSource,
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::int8[], $5::int[], $6::text[],
                              $7::text[], $8::int[], $9::text[], $10::int[], $11::timestamptz[])
             AS i(delivery_id, lease, status, retry_in_ms, status_code, error, attempt_id, attempt, url, latency_ms, attempted_at)
       ), moved AS (
         UPDATE webhook_deliveries d
            SET status = i.status, attempts = d.attempts + 1, locked_until = NULL,
                next_attempt_at = CASE WHEN i.retry_in_ms IS NULL THEN now() ELSE now() + i.retry_in_ms * interval '1 millisecond' END,
                last_status_code = i.status_code, last_error = i.error,
                delivered_at = CASE WHEN i.status = 'delivered' THEN now() ELSE d.delivered_at END,
                updated_at = now()
           FROM input i
          WHERE d.id = i.delivery_id AND d.locked_until = i.lease
         RETURNING d.id
       ), logged AS (
         INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, url, status_code, latency_ms, error, attempted_at)
         SELECT attempt_id, delivery_id, attempt, url, status_code, latency_ms, error, attempted_at FROM input
       )
       SELECT id FROM moved`,
      [
        column((a) => a.claim.id),
        column((a) => a.claim.leaseUntil),
        column((a) => a.outcome.status),
        column((a) => a.outcome.retryInMs),
        column((a) => a.result.statusCode),
        column((a) => a.outcome.error),
        column(() => newId('att')),
        column((a) => a.attempt),
        column((a) => a.url),
        column((a) => a.result.latencyMs),
        column((a) => a.attemptedAt),
      ],
    );
    return new Set(rows.map((row) => row.id));
  }
}

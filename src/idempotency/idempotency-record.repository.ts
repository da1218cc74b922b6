import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hydrate, sqlRows } from '../database/sql';
import { IdempotencyRecord } from './idempotency-record.entity';

/** The part of a record a request that holds it needs. */
export type HeldRecord = Pick<IdempotencyRecord, 'attempt' | 'paymentId' | 'txid'>;

/** A record as another request finds it, with its lock and retention judged by the database's clock. */
export interface FoundRecord {
  record: IdempotencyRecord;
  /** in_progress under a lock that has not lapsed. */
  lockActive: boolean;
  /** Past its retention: as good as absent. */
  expired: boolean;
}

/** Create attempts at one provider that did not end in a payment. */
export interface ProviderFailedAttempts {
  provider: string;
  failedAttempts: number;
}

export interface NewClaim {
  merchantId: string;
  key: string;
  requestHash: string;
  requestPath: string;
  paymentId: string;
  txid: string;
  lockSeconds: number;
  ttlSeconds: number;
  /** The claiming process's instance id (IdempotencyService), recorded as the record's holder. */
  holder: string;
}

/**
 * Every query of the `idempotency_records` table. Locks and their lapse are judged by the
 * database's now(), the one clock every gateway process sharing the database agrees on.
 */
@Injectable()
export class IdempotencyRecordRepository {
  constructor(@InjectRepository(IdempotencyRecord) private readonly records: Repository<IdempotencyRecord>) {}

  /**
   * Creates the record, locked by the caller, unless one exists for (merchant, key): the primary
   * key lets exactly one concurrent INSERT win. Null when another request got there first.
   */
  async insertLockedUnlessExists(claim: NewClaim): Promise<HeldRecord | null> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.records.manager,
      `INSERT INTO idempotency_records (merchant_id, key, request_hash, request_path, state, locked_until, payment_id, txid, expires_at, holder)
       VALUES ($1, $2, $3, $4, 'in_progress', now() + make_interval(secs => $5), $6, $7, now() + make_interval(secs => $8), $9)
       ON CONFLICT (merchant_id, key) DO NOTHING
       RETURNING attempt, payment_id, txid`,
      [claim.merchantId, claim.key, claim.requestHash, claim.requestPath, claim.lockSeconds, claim.paymentId, claim.txid, claim.ttlSeconds, claim.holder],
    );
    return rows[0] ? hydrate(this.records.manager, IdempotencyRecord, rows[0]) : null;
  }

  async find(merchantId: string, key: string): Promise<FoundRecord | null> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.records.manager,
      `SELECT *, (locked_until IS NOT NULL AND locked_until > now()) AS lock_active, (expires_at <= now()) AS expired
         FROM idempotency_records WHERE merchant_id = $1 AND key = $2`,
      [merchantId, key],
    );
    const row = rows[0];
    if (!row) return null;
    return { record: hydrate(this.records.manager, IdempotencyRecord, row), lockActive: row.lock_active === true, expired: row.expired === true };
  }

  /** Deletes the record if it is past its retention (checked again here: it may have been renewed meanwhile). */
  async deleteIfExpired(merchantId: string, key: string): Promise<void> {
    await this.records.manager.query(`DELETE FROM idempotency_records WHERE merchant_id = $1 AND key = $2 AND expires_at <= now()`, [merchantId, key]);
  }

  /**
   * Takes over a retryable record, or one in progress under a lapsed lock, if it is still at
   * `attempt` (fencing): bumps the attempt, so an earlier holder can no longer complete it, and
   * records `holder` as the new one. With `deadHolder`, also one in progress under an active lock
   * that this holder holds but no request of it does any more (IdempotencyService decides that):
   * a release that could not be written. Null when someone else took it first.
   */
  async takeOverIfAttempt(merchantId: string, key: string, attempt: number, lockSeconds: number, holder: string, deadHolder: string | null = null): Promise<HeldRecord | null> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.records.manager,
      `UPDATE idempotency_records
          SET state = 'in_progress', locked_until = now() + make_interval(secs => $3), attempt = attempt + 1, holder = $5
        WHERE merchant_id = $1 AND key = $2 AND attempt = $4
          AND (state = 'retryable' OR (state = 'in_progress' AND (locked_until <= now() OR holder = $6)))
        RETURNING attempt, payment_id, txid`,
      [merchantId, key, lockSeconds, attempt, holder, deadHolder],
    );
    return rows[0] ? hydrate(this.records.manager, IdempotencyRecord, rows[0]) : null;
  }

  /** Completes the record with the response, if `attempt` still holds it (fencing); false when it was lost. */
  async completeIfAttempt(merchantId: string, key: string, attempt: number, status: number, body: string): Promise<boolean> {
    const rows = await sqlRows<{ key: string }>(
      this.records.manager,
      `UPDATE idempotency_records SET state = 'completed', locked_until = NULL, response_status = $4, response_body = $5
        WHERE merchant_id = $1 AND key = $2 AND attempt = $3 AND state = 'in_progress'
        RETURNING key`,
      [merchantId, key, attempt, status, body],
    );
    return rows.length > 0;
  }

  /** Forgets the record, if `attempt` still holds it: a request refused for its content leaves nothing behind. */
  async deleteIfAttempt(merchantId: string, key: string, attempt: number): Promise<void> {
    await this.records.manager.query(`DELETE FROM idempotency_records WHERE merchant_id = $1 AND key = $2 AND attempt = $3 AND state = 'in_progress'`, [merchantId, key, attempt]);
  }

  /** Makes the record retryable, if `attempt` still holds it (fencing). */
  async releaseIfAttempt(merchantId: string, key: string, attempt: number, provider: string | null = null): Promise<void> {
    await this.records.manager.query(
      `UPDATE idempotency_records SET state = 'retryable', locked_until = NULL, provider = coalesce($4, provider)
        WHERE merchant_id = $1 AND key = $2 AND attempt = $3 AND state = 'in_progress'`,
      [merchantId, key, attempt, provider],
    );
  }

  /**
   * Deletes up to `limit` records whose retention ended before `now`, skipping rows another
   * transaction holds (SKIP LOCKED), so a purge never waits on or blocks a request. Returns how many.
   */
  async deleteExpiredSkipLocked(now: Date, limit: number): Promise<number> {
    const deleted = await sqlRows<unknown>(
      this.records.manager,
      `DELETE FROM idempotency_records WHERE ctid IN (
         SELECT ctid FROM idempotency_records WHERE expires_at <= $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING 1`,
      [now, limit],
    );
    return deleted.length;
  }

  // Dashboard statistics

  /**
   * Over the records created in the last `hours` hours (by the database's now()), the attempts that
   * did not end in a payment, per provider that was tried (recorded when an attempt is released;
   * older records fall back to the merchant's provider, then `defaultProvider`): every attempt of a retryable record, all but the last of any other.
   */
  failedAttemptsPerProvider(hours: number, defaultProvider: string): Promise<ProviderFailedAttempts[]> {
    return sqlRows<ProviderFailedAttempts>(
      this.records.manager,
      `SELECT coalesce(r.provider, m.provider, $2) AS provider,
              sum(CASE WHEN r.state = 'retryable' THEN r.attempt ELSE r.attempt - 1 END)::int AS "failedAttempts"
         FROM idempotency_records r JOIN merchants m ON m.id = r.merchant_id
        WHERE r.created_at >= now() - make_interval(hours => $1)
        GROUP BY 1`,
      [hours, defaultProvider],
    );
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PreparedResponse } from '../common/http/envelope';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { newId, randomBase62 } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { sqlRows } from '../database/sql';

/** A request that owns its Idempotency-Key and may act on it. */
export interface IdempotencyClaim {
  merchantId: string;
  key: string;
  /** Fencing token: only this attempt may complete the record. */
  attempt: number;
  /** Reserved on the first attempt and the same on every retry. */
  paymentId: string;
  /** Upstream idempotency key (Pix txid), the same on every retry. */
  txid: string;
}

export type IdempotencyOutcome = { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; response: PreparedResponse };

interface RecordRow {
  request_hash: string;
  request_path: string;
  state: 'in_progress' | 'retryable' | 'completed';
  lock_active: boolean;
  expired: boolean;
  attempt: number;
  payment_id: string;
  txid: string;
  response_status: number | null;
  response_body: string | null;
}

/** A Pix txid: 32 characters of [A-Za-z0-9], inside the BCB's 26–35. */
export function newTxid(): string {
  return randomBase62(32);
}

/**
 * Idempotency-Key handling (docs/api.md, Idempotency), enforced by the database so it holds across
 * processes: the (merchant, key) primary key lets exactly one INSERT win; everyone else reads the
 * winner's record and replays, waits (409) or is refused (422). A failed upstream call leaves the
 * record `retryable` with its payment id and txid, so the retry asks the provider for the same
 * charge. A holder that dies leaves a lock that lapses after IDEMPOTENCY_LOCK_SECONDS; the request
 * that takes over bumps `attempt`, which fences the old holder off.
 */
@Injectable()
export class IdempotencyService {

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async begin(merchantId: string, key: string, fingerprint: string, path: string): Promise<IdempotencyOutcome> {
    for (let round = 0; round < 3; round++) {
      const inserted = await sqlRows<{ attempt: number; payment_id: string; txid: string }>(
        this.dataSource,
        `INSERT INTO idempotency_records (merchant_id, key, request_hash, request_path, state, locked_until, payment_id, txid, expires_at)
         VALUES ($1, $2, $3, $4, 'in_progress', now() + make_interval(secs => $5), $6, $7, now() + make_interval(secs => $8))
         ON CONFLICT (merchant_id, key) DO NOTHING
         RETURNING attempt, payment_id, txid`,
        [merchantId, key, fingerprint, path, this.config.idempotencyLockSeconds, newId('pay'), newTxid(), this.config.idempotencyTtlSeconds],
      );
      if (inserted[0]) return { kind: 'claimed', claim: { merchantId, key, attempt: inserted[0].attempt, paymentId: inserted[0].payment_id, txid: inserted[0].txid } };

      const rows = await sqlRows<RecordRow>(
        this.dataSource,
        `SELECT request_hash, request_path, state, attempt, payment_id, txid, response_status, response_body,
                (locked_until IS NOT NULL AND locked_until > now()) AS lock_active, (expires_at <= now()) AS expired
           FROM idempotency_records WHERE merchant_id = $1 AND key = $2`,
        [merchantId, key],
      );
      const record = rows[0];
      if (!record) continue; // purged between the two statements: insert again
      if (record.expired) {
        await this.dataSource.query(`DELETE FROM idempotency_records WHERE merchant_id = $1 AND key = $2 AND expires_at <= now()`, [merchantId, key]);
        continue;
      }
      if (record.request_hash !== fingerprint || record.request_path !== path) throw new AppError(ErrorCode.IDEMPOTENCY_KEY_REUSED);
      if (record.state === 'completed') return { kind: 'replay', response: this.replay(record) };
      if (record.state === 'in_progress' && record.lock_active) throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);

      // Retryable, or in progress under a lapsed lock: take it over, fencing off any earlier holder.
      const taken = await sqlRows<{ attempt: number }>(
        this.dataSource,
        `UPDATE idempotency_records
            SET state = 'in_progress', locked_until = now() + make_interval(secs => $3), attempt = attempt + 1
          WHERE merchant_id = $1 AND key = $2 AND attempt = $4
            AND (state = 'retryable' OR (state = 'in_progress' AND locked_until <= now()))
          RETURNING attempt`,
        [merchantId, key, this.config.idempotencyLockSeconds, record.attempt],
      );
      if (taken[0]) return { kind: 'claimed', claim: { merchantId, key, attempt: taken[0].attempt, paymentId: record.payment_id, txid: record.txid } };
      throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);
    }
    throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);
  }

  /** The attempt failed in a way that may be retried with the same key (upstream error, crash-free fault). */
  async release(claim: IdempotencyClaim): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_records SET state = 'retryable', locked_until = NULL
        WHERE merchant_id = $1 AND key = $2 AND attempt = $3 AND state = 'in_progress'`,
      [claim.merchantId, claim.key, claim.attempt],
    );
  }

  /**
   * Replays the stored response of a completed record, or (when this claim was fenced off and
   * someone else completed it) theirs. Used when completing loses the race.
   */
  async replayOrInProgress(claim: IdempotencyClaim): Promise<PreparedResponse> {
    const rows = await sqlRows<RecordRow>(
      this.dataSource,
      `SELECT state, response_status, response_body FROM idempotency_records WHERE merchant_id = $1 AND key = $2`,
      [claim.merchantId, claim.key],
    );
    if (rows[0]?.state === 'completed') return this.replay(rows[0]);
    throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);
  }

  private replay(record: Pick<RecordRow, 'response_status' | 'response_body'>): PreparedResponse {
    const body = record.response_body ?? 'null';
    const requestId = (JSON.parse(body) as { request_id?: string })?.request_id;
    return new PreparedResponse(record.response_status ?? 200, body, {
      'content-type': 'application/json; charset=utf-8',
      'idempotent-replayed': 'true',
      ...(requestId ? { 'x-request-id': requestId } : {}),
    });
  }

  /** Deletes records past their retention, in batches so a large backlog never holds long locks. */
  async purgeExpired(batchSize = 1000): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await sqlRows<unknown>(
        this.dataSource,
        `DELETE FROM idempotency_records WHERE ctid IN (
           SELECT ctid FROM idempotency_records WHERE expires_at <= now() LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING 1`,
        [batchSize],
      );
      total += deleted.length;
      if (deleted.length < batchSize) return total;
    }
  }
}

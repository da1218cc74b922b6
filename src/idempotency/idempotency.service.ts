import { Injectable } from '@nestjs/common';
import { PreparedResponse } from '../common/http/envelope';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { newId, randomBase62 } from '../common/ids';
import { Clock } from '../domain/clock';
import { AppConfig } from '../config/app-config';
import { IdempotencyRecord } from './idempotency-record.entity';
import { IdempotencyRecordRepository } from './idempotency-record.repository';

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
    private readonly records: IdempotencyRecordRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async begin(merchantId: string, key: string, fingerprint: string, path: string): Promise<IdempotencyOutcome> {
    const { idempotencyLockSeconds: lockSeconds, idempotencyTtlSeconds: ttlSeconds } = this.config;
    for (let round = 0; round < 3; round++) {
      const inserted = await this.records.insertLockedUnlessExists({
        merchantId,
        key,
        requestHash: fingerprint,
        requestPath: path,
        paymentId: newId('pay'),
        txid: newTxid(),
        lockSeconds,
        ttlSeconds,
      });
      if (inserted) return { kind: 'claimed', claim: { merchantId, key, attempt: inserted.attempt, paymentId: inserted.paymentId, txid: inserted.txid } };

      const found = await this.records.find(merchantId, key);
      if (!found) continue; // purged between the two statements: insert again
      const { record } = found;
      if (found.expired) {
        await this.records.deleteIfExpired(merchantId, key);
        continue;
      }
      if (record.requestHash !== fingerprint || record.requestPath !== path) throw new AppError(ErrorCode.IDEMPOTENCY_KEY_REUSED);
      if (record.state === 'completed') return { kind: 'replay', response: this.replay(record) };
      if (record.state === 'in_progress' && found.lockActive) throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);

      // Retryable, or in progress under a lapsed lock: take it over, fencing off any earlier holder.
      const taken = await this.records.takeOverIfAttempt(merchantId, key, record.attempt, lockSeconds);
      if (taken) return { kind: 'claimed', claim: { merchantId, key, attempt: taken.attempt, paymentId: record.paymentId, txid: record.txid } };
      throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);
    }
    throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);
  }

  /**
   * The attempt failed in a way that may be retried with the same key (upstream error, crash-free
   * fault). `provider` is the one that was tried: the dashboard charges the failure to it.
   */
  async release(claim: IdempotencyClaim, provider?: string): Promise<void> {
    await this.records.releaseIfAttempt(claim.merchantId, claim.key, claim.attempt, provider ?? null);
  }

  /**
   * Completes the record with the response of an operation that is not a create (a refund): the
   * response is replayed to the same key from now on. When the claim was lost meanwhile, the
   * winner's response (or 409) is the answer instead.
   */
  async complete(claim: IdempotencyClaim, response: PreparedResponse): Promise<PreparedResponse> {
    if (await this.records.completeIfAttempt(claim.merchantId, claim.key, claim.attempt, response.status, String(response.body))) return response;
    return this.replayOrInProgress(claim);
  }

  /** The request was refused for what it asked (4xx): nothing is kept, and the key is free again. */
  async abandon(claim: IdempotencyClaim): Promise<void> {
    await this.records.deleteIfAttempt(claim.merchantId, claim.key, claim.attempt);
  }

  /**
   * Replays the stored response of a completed record, or (when this claim was fenced off and
   * someone else completed it) theirs. Used when completing loses the race.
   */
  async replayOrInProgress(claim: IdempotencyClaim): Promise<PreparedResponse> {
    const found = await this.records.find(claim.merchantId, claim.key);
    if (found?.record.state === 'completed') return this.replay(found.record);
    throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);
  }

  private replay(record: Pick<IdempotencyRecord, 'responseStatus' | 'responseBody'>): PreparedResponse {
    const body = record.responseBody ?? 'null';
    const requestId = (JSON.parse(body) as { request_id?: string })?.request_id;
    return new PreparedResponse(record.responseStatus ?? 200, body, {
      'content-type': 'application/json; charset=utf-8',
      'idempotent-replayed': 'true',
      ...(requestId ? { 'x-request-id': requestId } : {}),
    });
  }

  /** Deletes records past their retention (by the injected clock), in batches so a large backlog never holds long locks. */
  async purgeExpired(batchSize = 1000): Promise<number> {
    const now = this.clock.now();
    let total = 0;
    for (;;) {
      const deleted = await this.records.deleteExpiredSkipLocked(now, batchSize);
      total += deleted;
      if (deleted < batchSize) return total;
    }
  }
}

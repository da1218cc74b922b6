import { Inject, Injectable, OnModuleDestroy, Optional } from '@nestjs/common';
import { PreparedResponse } from '../common/http/envelope';
import { AppError } from '../common/errors/app-error';
import { providerNamedBy } from '../common/errors/answer-provider';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable';
import { ErrorCode } from '../common/errors/error-codes';
import { newId, randomBase62 } from '../common/ids';
import { Clock } from '../domain/clock';
import { AppConfig } from '../config/app-config';
import { IdempotencyRecord } from './idempotency-record.entity';
import { IdempotencyRecordRepository } from './idempotency-record.repository';
import { CLAIM_WRITE_RETRY, type ClaimWriteRetry, PendingClaimWrites } from './pending-claim-writes';

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

/** One request's Idempotency-Key, and what makes another request with it "the same" (docs/api.md, Idempotency). */
export interface IdempotentCall {
  merchantId: string;
  key: string;
  /** requestFingerprint() of the request: method, path and canonical body. */
  fingerprint: string;
  /** The path the record keeps; the same key on another path is another request. */
  path: string;
}

/**
 * What an operation run under a claim answers: a response for `run` to store with the record, or one
 * whose record the operation completed itself (a payment create writes it in the statement that
 * inserts the payment, so the two happen together or not at all).
 */
export type ClaimedAnswer = { complete: PreparedResponse } | { completed: PreparedResponse };

export interface RunOptions {
  /** The provider a released key is charged to (the dashboard's error rates), unless the failure names another (answer-provider.ts). */
  provider?: string;
  /**
   * What a refusal (an AppError under 500: the request asked for what it may not have) does to the
   * key: `abandon` (the default) frees it and keeps nothing; `release` leaves it retryable like any
   * other failure, for a create whose retry must ask the PSP for the same charge.
   */
  refusal?: 'abandon' | 'release';
  /** Told when the key's stored answer is replayed instead of running the operation. */
  onReplay?: () => void;
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
 *
 * A live process whose request failed because the database was unreachable could not write the
 * claim's release either (docs/operations.md, Database outage). The write waits in
 * PendingClaimWrites and lands once the database answers; meanwhile the record names this process
 * (`holder`, its instance id) and this process knows that none of its requests holds the claim any
 * more (`held`), so its next request with the key takes it over at once instead of waiting for
 * the lock. Other processes wait for the release as for any claim in progress.
 */
@Injectable()
export class IdempotencyService implements OnModuleDestroy {
  /** This process's id on the records it claims: random, so a restarted process is another holder. */
  readonly instanceId = `gwi_${randomBase62(16)}`;
  /** Claims requests of this process hold, by merchant and key: the attempt, and since when (performance.now()). */
  private readonly held = new Map<string, { attempt: number; since: number }>();
  /** Claim writes (insert or take-over) of this process under way, by merchant and key: until one returns, its claim may be in the table but not yet in `held`. */
  private readonly claiming = new Map<string, number>();
  private readonly pending: PendingClaimWrites;

  constructor(
    private readonly records: IdempotencyRecordRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @Optional() @Inject(CLAIM_WRITE_RETRY) retry?: ClaimWriteRetry,
  ) {
    this.pending = new PendingClaimWrites(retry);
  }

  onModuleDestroy(): void {
    this.pending.stop();
  }

  /**
   * The stored answer of a completed request with this key and fingerprint, or null: a read that
   * claims nothing, for a route that must resolve what it acts through (the merchant's accounts)
   * before it can claim, and must still replay what it answered whatever has changed since.
   */
  async completedReplay(merchantId: string, key: string, fingerprint: string, path: string): Promise<PreparedResponse | null> {
    const found = await this.records.find(merchantId, key);
    if (!found || found.expired || found.record.state !== 'completed') return null;
    if (found.record.requestHash !== fingerprint || found.record.requestPath !== path) return null;
    return this.replay(found.record);
  }

  /**
   * The one sequence of an idempotent route: the key looked up first (a completed one replays, a
   * busy one is 409, another request's 422), then `operation` run under the claim and its answer
   * stored, so the key replays it from now on; should the claim have been lost meanwhile, the answer
   * is the winner's (or 409). When the operation fails, a refusal frees the key and anything else
   * (a provider's failure, a fault, the database gone: its write waits for the database, and this
   * process frees the key at once) leaves it retryable with the same reserved ids.
   */
  async run(call: IdempotentCall, operation: (claim: IdempotencyClaim) => Promise<ClaimedAnswer>, options: RunOptions = {}): Promise<PreparedResponse> {
    const outcome = await this.begin(call.merchantId, call.key, call.fingerprint, call.path);
    if (outcome.kind === 'replay') {
      options.onReplay?.();
      return outcome.response;
    }
    const { claim } = outcome;
    try {
      const answer = await operation(claim);
      if ('completed' in answer) return answer.completed;
      return await this.complete(claim, answer.complete);
    } catch (error) {
      if (error instanceof AppError && error.status < 500 && options.refusal !== 'release') await this.abandon(claim);
      else await this.release(claim, providerNamedBy(error) ?? options.provider);
      throw error;
    }
  }

  async begin(merchantId: string, key: string, fingerprint: string, path: string): Promise<IdempotencyOutcome> {
    const { idempotencyLockSeconds: lockSeconds, idempotencyTtlSeconds: ttlSeconds } = this.config;
    const slot = slotOf(merchantId, key);
    this.forgetLapsed(lockSeconds);
    for (let round = 0; round < 3; round++) {
      const inserted = await this.claimWrite(slot, () =>
        this.records.insertLockedUnlessExists({
          merchantId,
          key,
          requestHash: fingerprint,
          requestPath: path,
          paymentId: newId('pay'),
          txid: newTxid(),
          lockSeconds,
          ttlSeconds,
          holder: this.instanceId,
        }),
      );
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
      // In progress under an active lock: someone is at it, unless the holder is this process and
      // none of its requests holds the claim (its release is among the pending writes).
      const abandonedHere = record.state === 'in_progress' && found.lockActive && this.abandonedHere(slot, record);
      if (record.state === 'in_progress' && found.lockActive && !abandonedHere) throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);

      // Retryable, in progress under a lapsed lock, or abandoned here: take it over, fencing off any earlier holder.
      const taken = await this.claimWrite(slot, () =>
        this.records.takeOverIfAttempt(merchantId, key, record.attempt, lockSeconds, this.instanceId, abandonedHere ? this.instanceId : null),
      );
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
    this.letGo(claim);
    await this.writeOrQueue(claim, 'release', () => this.records.releaseIfAttempt(claim.merchantId, claim.key, claim.attempt, provider ?? null));
  }

  /**
   * Completes the record with the response of an operation that is not a create (a refund): the
   * response is replayed to the same key from now on. When the claim was lost meanwhile, the
   * winner's response (or 409) is the answer instead.
   */
  async complete(claim: IdempotencyClaim, response: PreparedResponse): Promise<PreparedResponse> {
    this.letGo(claim);
    const write = () => this.records.completeIfAttempt(claim.merchantId, claim.key, claim.attempt, response.status, String(response.body));
    let completed: boolean;
    try {
      completed = await write();
    } catch (error) {
      // The operation was done: its answer is recorded once the database is back, and a retry replays it.
      // The request itself fails (503): its client cannot be told it worked without the record.
      if (isDatabaseUnavailable(error)) this.pending.add(claimLabel(claim, 'complete'), write);
      throw error;
    }
    if (completed) return response;
    return this.replayOrInProgress(claim);
  }

  /** The request was refused for what it asked (4xx): nothing is kept, and the key is free again. */
  async abandon(claim: IdempotencyClaim): Promise<void> {
    this.letGo(claim);
    await this.writeOrQueue(claim, 'abandon', () => this.records.deleteIfAttempt(claim.merchantId, claim.key, claim.attempt));
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

  /**
   * Writes a claim's release or deletion; when the database is unreachable, queues it to be written
   * once it answers, and returns as if written: the request is failing already (with the error that
   * found the database gone, which its caller throws), and the key is free for a retry in this
   * process at once, in others once the write lands.
   */
  private async writeOrQueue(claim: IdempotencyClaim, what: 'release' | 'abandon', write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.pending.add(claimLabel(claim, what), write);
    }
  }

  /** Runs a write that may put this process's claim in the table, counted in `claiming` while it runs; what it claims is then `held`. */
  private async claimWrite<T extends { attempt: number } | null>(slot: string, write: () => Promise<T>): Promise<T> {
    this.claiming.set(slot, (this.claiming.get(slot) ?? 0) + 1);
    try {
      const claimed = await write();
      if (claimed) {
        // Re-inserted, so the map stays in the order claims were taken (forgetLapsed reads it from the front).
        this.held.delete(slot);
        this.held.set(slot, { attempt: claimed.attempt, since: performance.now() });
      }
      return claimed;
    } finally {
      const left = (this.claiming.get(slot) ?? 1) - 1;
      if (left > 0) this.claiming.set(slot, left);
      else this.claiming.delete(slot);
    }
  }

  /** The record names this process as holder, yet no request of it holds that attempt, nor is claiming the key right now. */
  private abandonedHere(slot: string, record: Pick<IdempotencyRecord, 'holder' | 'attempt'>): boolean {
    return record.holder === this.instanceId && this.held.get(slot)?.attempt !== record.attempt && !this.claiming.has(slot);
  }

  /** The request holding `claim` is done with it, whether or not what it wrote reached the database. */
  private letGo(claim: IdempotencyClaim): void {
    const slot = slotOf(claim.merchantId, claim.key);
    if (this.held.get(slot)?.attempt === claim.attempt) this.held.delete(slot);
  }

  /**
   * Forgets claims held longer than the lock: by then any process may take them over anyway, and a
   * request that never let go (a create completes its record with the payment, not through this
   * service) must not stay in memory.
   */
  private forgetLapsed(lockSeconds: number): void {
    const before = performance.now() - lockSeconds * 1000;
    for (const [slot, claim] of this.held) {
      if (claim.since > before) break;
      this.held.delete(slot);
    }
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

function slotOf(merchantId: string, key: string): string {
  return `${merchantId}\u0000${key}`;
}

/** A claim for the log: never the key itself, which is the merchant's. */
function claimLabel(claim: IdempotencyClaim, what: string): string {
  return `${what} of payment ${claim.paymentId}'s claim, attempt ${claim.attempt}`;
}

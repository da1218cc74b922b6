import { Logger } from '@nestjs/common';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable';

/** When a claim write that found the database unreachable is tried again: after `firstMs`, doubling up to `maxMs`. */
export interface ClaimWriteRetry {
  firstMs: number;
  maxMs: number;
}

/** Optional injection token for ClaimWriteRetry (tests hold writes back, or hurry them). */
export const CLAIM_WRITE_RETRY = Symbol('CLAIM_WRITE_RETRY');

export const DEFAULT_CLAIM_WRITE_RETRY: ClaimWriteRetry = { firstMs: 250, maxMs: 2000 };

interface PendingWrite {
  /** For the log: which claim, and what was to be written. */
  what: string;
  write: () => Promise<unknown>;
}

/**
 * The releases (and completions, and deletions) of idempotency claims that could not be written
 * because the database was unreachable (docs/operations.md, Database outage). Each is a fenced
 * statement (it changes the record only while the claim's `attempt` still holds it), so it can be
 * written late, and written after a retry took the claim over, without harm. They are written in
 * the order they failed, one at a time, again and again with backoff until the database answers;
 * a write that fails for another reason is given up (its claim's lock lapses as a dead process's
 * would). What is still waiting when the process stops is lost the same way.
 */
export class PendingClaimWrites {
  private readonly logger = new Logger('Idempotency');
  private readonly queue: PendingWrite[] = [];
  private timer?: NodeJS.Timeout;
  private delayMs: number;
  private running = false;
  private stopped = false;

  constructor(private readonly retry: ClaimWriteRetry = DEFAULT_CLAIM_WRITE_RETRY) {
    this.delayMs = retry.firstMs;
  }

  get size(): number {
    return this.queue.length;
  }

  add(what: string, write: () => Promise<unknown>): void {
    if (this.stopped) return;
    this.queue.push({ what, write });
    if (!this.running && !this.timer) this.schedule();
  }

  /** Stops retrying; what is left is logged, and its claims wait for their locks to lapse. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length > 0) {
      this.logger.warn(
        { claims: this.queue.map((pending) => pending.what) },
        `${this.queue.length} idempotency claim write(s) abandoned at shutdown; their keys are free once their locks lapse`,
      );
    }
    this.queue.length = 0;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.drain(), this.delayMs);
    // Waiting writes must not keep a stopping process alive.
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    this.timer = undefined;
    this.running = true;
    try {
      while (this.queue.length > 0 && !this.stopped) {
        const head = this.queue[0]!;
        try {
          await head.write();
        } catch (error) {
          if (isDatabaseUnavailable(error)) {
            this.delayMs = Math.min(this.delayMs * 2, this.retry.maxMs);
            return;
          }
          this.logger.warn({ claim: head.what, reason: error instanceof Error ? error.message : String(error) }, `Idempotency claim write given up: ${head.what}`);
        }
        this.queue.shift();
        this.delayMs = this.retry.firstMs;
      }
    } finally {
      this.running = false;
      if (this.queue.length > 0) this.schedule();
    }
  }
}

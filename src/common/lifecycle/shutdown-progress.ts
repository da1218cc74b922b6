import { Global, Injectable, Module } from '@nestjs/common';

/** Where a shutdown is: answering the requests in flight, stopping the jobs and the delivery worker, closing the database, done. */
export type ShutdownStage = 'running' | 'draining' | 'stopping' | 'closing-database' | 'closed';

const STAGES: readonly ShutdownStage[] = ['running', 'draining', 'stopping', 'closing-database', 'closed'];

/** Work a part of the gateway counts: its noun for one and for several. */
export interface Countable {
  one: string;
  many: string;
}

export const REQUESTS: Countable = { one: 'request', many: 'requests' };
export const DELIVERIES: Countable = { one: 'delivery', many: 'deliveries' };

/**
 * What is kept at the end of SHUTDOWN_TIMEOUT_MS for the last line and the logs still buffered:
 * the process exits by then, whatever is still under way.
 */
export function exitReserveMs(timeoutMs: number): number {
  return Math.min(250, Math.floor(timeoutMs / 10));
}

/** What is kept after requests and deliveries for stopping the jobs and closing the database. */
export function closeReserveMs(timeoutMs: number): number {
  return Math.min(1_000, Math.floor(timeoutMs / 4));
}

/**
 * One shutdown of this process (docs/operations.md, Shutdown). SIGTERM fixes the deadline,
 * SIGTERM + SHUTDOWN_TIMEOUT_MS, and every part of the graceful close reads from here how long it
 * has: requests and deliveries in flight until `workMsLeft()`, the jobs and the database until
 * `closeMsLeft()`; main.ts exits at the deadline whatever is left. Each part says what it gave up
 * or still holds, so that the line logged at the end names what was abandoned.
 */
@Injectable()
export class ShutdownProgress {
  private deadlineAt?: number;
  private timeoutMs = 0;
  private current: ShutdownStage = 'running';
  private readonly givenUp = new Map<Countable, number>();
  private readonly live = new Map<Countable, () => number>();

  /** SIGTERM: the process must be gone at `deadlineAt` (ms since the epoch), `timeoutMs` after the signal. */
  begin(deadlineAt: number, timeoutMs: number): void {
    if (this.deadlineAt !== undefined) return;
    this.deadlineAt = deadlineAt;
    this.timeoutMs = timeoutMs;
    this.enter('draining');
  }

  get begun(): boolean {
    return this.deadlineAt !== undefined;
  }

  get stage(): ShutdownStage {
    return this.current;
  }

  /** Moves on to `stage` (never back). */
  enter(stage: ShutdownStage): void {
    if (STAGES.indexOf(stage) > STAGES.indexOf(this.current)) this.current = stage;
  }

  /** Milliseconds left for requests and deliveries in flight; Infinity before shutdown begins. */
  workMsLeft(now = Date.now()): number {
    return this.msLeft(now, exitReserveMs(this.timeoutMs) + closeReserveMs(this.timeoutMs));
  }

  /** Milliseconds left for stopping the jobs and closing the database; Infinity before shutdown begins. */
  closeMsLeft(now = Date.now()): number {
    return this.msLeft(now, exitReserveMs(this.timeoutMs));
  }

  /** Milliseconds until the process must be gone; Infinity before shutdown begins. */
  msLeft(now = Date.now(), reserveMs = 0): number {
    if (this.deadlineAt === undefined) return Infinity;
    return Math.max(0, this.deadlineAt - reserveMs - now);
  }

  /** `count` of `what` were given up (a connection cut with its request unanswered, a delivery left to its lease). */
  giveUp(what: Countable, count: number): void {
    if (count > 0) this.givenUp.set(what, (this.givenUp.get(what) ?? 0) + count);
  }

  /** How many of `what` are under way now, read when the deadline comes before they are given up. */
  track(what: Countable, count: () => number): void {
    this.live.set(what, count);
  }

  /**
   * What is abandoned if the process exits now, for the last line: `2 requests`, `1 delivery`, and
   * the stages not finished: `the background jobs` (when no delivery in flight says what holds
   * them up), `the database close`. Empty when nothing was.
   */
  abandoned(): string[] {
    if (!this.begun) return [];
    const parts: string[] = [];
    let stillUnderWay = false;
    for (const what of new Set([...this.givenUp.keys(), ...this.live.keys()])) {
      const count = this.givenUp.get(what) ?? this.live.get(what)?.() ?? 0;
      if (count <= 0) continue;
      if (!this.givenUp.has(what)) stillUnderWay = true;
      parts.push(`${count} ${count === 1 ? what.one : what.many}`);
    }
    if (this.current === 'stopping' && !stillUnderWay) parts.push('the background jobs');
    if (this.current !== 'closed') parts.push('the database close');
    return parts;
  }
}

/** ShutdownProgress for every module: the HTTP drain, the delivery worker and the database closer share one. */
@Global()
@Module({ providers: [ShutdownProgress], exports: [ShutdownProgress] })
export class ShutdownModule {}

import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { databaseUnavailableReason } from './database-unavailable';

/** Whether the database answers within `timeoutMs`; never throws (DatabaseHealth.ping, behind /health). */
export type DatabaseProbe = (timeoutMs: number) => Promise<boolean>;

/** How often, during an outage, the database is asked whether it is back. */
const PROBE_EVERY_MS = 1000;

/**
 * A database outage in two log lines (docs/operations.md, Database outage): one when the first
 * request fails for it, with the reason, and one when the database answers again, with how long it
 * lasted and how many requests were answered 503 meanwhile. The requests themselves are not logged
 * one by one (the access log has each), so an outage under load is not a stack per request.
 *
 * The end is found by asking the database, as /health does, once a second: a request can only say
 * that it failed. The database module provides it with that probe; the global exception filter reports
 * each 503 it renders for the database's absence.
 */
export class DatabaseOutage implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private current?: { since: number; answered: number };
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly probe: DatabaseProbe,
    private readonly probeEveryMs = PROBE_EVERY_MS,
  ) {}

  /** True while an outage is under way (from the first 503 until the database answers). */
  get ongoing(): boolean {
    return this.current !== undefined;
  }

  /** A request was answered 503 because the database is unreachable; `error` is why. */
  answered503(error: unknown): void {
    if (this.current) {
      this.current.answered += 1;
      return;
    }
    this.current = { since: performance.now(), answered: 1 };
    const reason = databaseUnavailableReason(error) ?? 'unknown';
    this.logger.error({ reason }, `Database unreachable (${reason}): answering 503 SERVICE_UNAVAILABLE until it answers again`);
    this.scheduleProbe();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private scheduleProbe(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.check(), this.probeEveryMs);
    // An outage must not keep a stopping process alive.
    this.timer.unref();
  }

  private async check(): Promise<void> {
    const outage = this.current;
    if (!outage || this.stopped) return;
    if (!(await this.probe(this.probeEveryMs))) return this.scheduleProbe();
    this.current = undefined;
    const seconds = ((performance.now() - outage.since) / 1000).toFixed(1);
    this.logger.warn({ outage_seconds: Number(seconds), answered_503: outage.answered }, `Database reachable again after ${seconds} s, ${outage.answered} requests answered 503`);
  }
}

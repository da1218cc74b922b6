import type { LoggerService } from '@nestjs/common';

export interface PeriodicJobOptions {
  /** Names the job in its log lines. */
  name: string;
  /** Milliseconds between runs; 0 or less: the job never runs in this process. */
  intervalMs: number;
  /** One run. A rejection is logged and the next tick tries again. */
  run: () => Promise<unknown> | void;
  logger: Pick<LoggerService, 'error'>;
  /** Also run once at start, not only after the first interval. */
  runAtStart?: boolean;
}

/**
 * The one lifecycle of the gateway's background jobs (reconciliation, purges, the delivery poll):
 * started on application bootstrap, a run at a time (a tick that finds the previous run still going
 * is skipped), the timer unref'd so it never keeps the process alive, and stopped before the
 * application shuts down, waiting for a run in progress, so none is cut off halfway through a
 * transaction when the database closes (which happens in onApplicationShutdown, after).
 */
export class PeriodicJob {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly options: PeriodicJobOptions) {}

  /** Call from onApplicationBootstrap. */
  start(): void {
    if (this.options.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => this.tick(), this.options.intervalMs);
    this.timer.unref();
    if (this.options.runAtStart) this.tick();
  }

  /** Call from beforeApplicationShutdown: no run starts after this, and the one in progress is awaited. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = (async () => {
      try {
        await this.options.run();
      } catch (error) {
        this.options.logger.error({ err: error }, `${this.options.name} failed; trying again on the next tick`);
      } finally {
        this.running = undefined;
      }
    })();
  }
}

import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ReconciliationService } from './reconciliation.service';

/**
 * Runs reconciliation every JOB_INTERVAL_MS (0: never; tests call the service). One run at a time:
 * a tick that finds the previous run still going is skipped. The timer is unref'd so it never keeps
 * the process alive. It stops before the application shuts down (not in onApplicationShutdown,
 * which is where the database is closed) and waits for a run in progress, so no run is cut off
 * halfway through a transaction.
 */
@Injectable()
export class ReconciliationJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Reconciliation');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly reconciliation: ReconciliationService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.jobIntervalMs <= 0) return;
    this.timer = setInterval(() => this.tick(), this.config.jobIntervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.reconciliation
      .runOnce()
      .then((summary) => {
        if (summary.applied || summary.failed) this.logger.log(summary, `Reconciled: ${summary.checked} checked, ${summary.applied} applied, ${summary.failed} failed`);
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'Reconciliation run failed; trying again on the next tick'))
      .finally(() => {
        this.running = undefined;
      });
  }
}

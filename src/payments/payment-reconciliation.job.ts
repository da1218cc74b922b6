import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicJob } from '../common/jobs/periodic-job';
import { AppConfig } from '../config/app-config';
import { ReconciliationService } from './payment-reconciliation.service';

/**
 * Runs reconciliation every JOB_INTERVAL_MS (0: never; tests call the service), with the lifecycle
 * every background job shares (PeriodicJob): one run at a time, stopped before shutdown after the
 * run in progress, so no run is cut off halfway through a transaction.
 */
@Injectable()
export class ReconciliationJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Reconciliation');
  private readonly job: PeriodicJob;

  constructor(config: AppConfig, reconciliation: ReconciliationService) {
    this.job = new PeriodicJob({
      name: 'Reconciliation run',
      intervalMs: config.jobIntervalMs,
      logger: this.logger,
      run: async () => {
        const summary = await reconciliation.runOnce();
        if (summary.applied || summary.failed) this.logger.log(summary, `Reconciled: ${summary.checked} checked, ${summary.applied} applied, ${summary.failed} failed`);
      },
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }
}

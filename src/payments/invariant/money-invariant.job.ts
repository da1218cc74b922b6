import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicJob } from '../../common/jobs/periodic-job';
import { AppConfig } from '../../config/app-config';
import { MoneyInvariantService } from './money-invariant.service';

/**
 * The daily money invariant check, beside reconciliation's runs: every JOB_INTERVAL_MS (0: never)
 * each process asks whether today's run (UTC, from INVARIANT_CHECK_HOUR) is due and unclaimed; the
 * database lets one process claim the day, and that one runs it. A run stopped by a shutdown or
 * abandoned by a crash gives the day back, so another process (or this one, restarted) runs it.
 */
@Injectable()
export class MoneyInvariantJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('MoneyInvariant');
  private readonly job: PeriodicJob;

  constructor(
    config: AppConfig,
    private readonly invariant: MoneyInvariantService,
  ) {
    this.job = new PeriodicJob({
      name: 'Daily money invariant check',
      intervalMs: config.jobIntervalMs,
      logger: this.logger,
      run: () => invariant.runDaily(),
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    // The run is told to stop first: waiting for the tick alone would wait for the whole run.
    await Promise.all([this.invariant.stop(), this.job.stop()]);
  }
}

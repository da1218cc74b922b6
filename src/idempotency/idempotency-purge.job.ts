import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicJob } from '../common/jobs/periodic-job';
import { AppConfig } from '../config/app-config';
import { IdempotencyService } from './idempotency.service';

/**
 * Deletes idempotency records past their retention every JOB_INTERVAL_MS (0: never), with the
 * lifecycle every background job shares (PeriodicJob): a purge in progress at shutdown finishes
 * before the database closes.
 */
@Injectable()
export class IdempotencyPurgeJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly job: PeriodicJob;

  constructor(config: AppConfig, idempotency: IdempotencyService) {
    this.job = new PeriodicJob({
      name: 'Purging expired idempotency records',
      intervalMs: config.jobIntervalMs,
      logger: new Logger('Idempotency'),
      run: () => idempotency.purgeExpired(),
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }
}

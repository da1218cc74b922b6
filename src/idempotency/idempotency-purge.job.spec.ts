import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { IdempotencyPurgeJob } from './idempotency-purge.job';
import type { IdempotencyService } from './idempotency.service';

describe('IdempotencyPurgeJob', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('purges every JOB_INTERVAL_MS and, at shutdown, waits for the purge in progress before the database closes', async () => {
    let finish!: (deleted: number) => void;
    const service = { purgeExpired: jest.fn(() => new Promise<number>((resolve) => (finish = resolve))) };
    const job = new IdempotencyPurgeJob({ jobIntervalMs: 1000 } as AppConfig, service as unknown as IdempotencyService);
    job.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1000);
    expect(service.purgeExpired).toHaveBeenCalledTimes(1);
    let stopped = false;
    const stopping = job.beforeApplicationShutdown().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    finish(3);
    await stopping;
    expect(service.purgeExpired).toHaveBeenCalledTimes(1);
  });

  it('does not purge when JOB_INTERVAL_MS is 0', async () => {
    const service = { purgeExpired: jest.fn() };
    new IdempotencyPurgeJob({ jobIntervalMs: 0 } as AppConfig, service as unknown as IdempotencyService).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(service.purgeExpired).not.toHaveBeenCalled();
  });
});

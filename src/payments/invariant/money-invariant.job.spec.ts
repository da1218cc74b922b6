import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/app-config';
import { MoneyInvariantJob } from './money-invariant.job';
import type { MoneyInvariantService } from './money-invariant.service';

describe('MoneyInvariantJob', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A service whose daily run lasts until the service is told to stop, as a long run does. */
  function longRuns() {
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const service = {
      runDaily: jest.fn(() => stopped.then(() => null)),
      stop: jest.fn(async () => stop()),
    };
    return service;
  }
  const job = (intervalMs: number, service: object) => new MoneyInvariantJob({ jobIntervalMs: intervalMs } as AppConfig, service as unknown as MoneyInvariantService);

  it('asks whether the daily run is due on each tick, one tick at a time', async () => {
    const service = longRuns();
    const subject = job(1000, service);
    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3500);
    expect(service.runDaily).toHaveBeenCalledTimes(1); // the first run is still going
    await subject.beforeApplicationShutdown();
  });

  it('tells the run to stop at shutdown rather than waiting for it to end', async () => {
    const service = longRuns();
    const subject = job(1000, service);
    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1000);
    await subject.beforeApplicationShutdown(); // would never resolve if it only waited for the tick
    expect(service.stop).toHaveBeenCalled();
  });

  it('never runs when JOB_INTERVAL_MS is 0', async () => {
    const service = longRuns();
    job(0, service).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(service.runDaily).not.toHaveBeenCalled();
  });
});

import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { ReconciliationJob } from './payment-reconciliation.job';
import type { ReconciliationService, ReconciliationSummary } from './payment-reconciliation.service';

/** A reconciliation run the test finishes when it wants to. */
function controllableRuns() {
  const finishers: (() => void)[] = [];
  const service = {
    runOnce: jest.fn(
      () =>
        new Promise<ReconciliationSummary>((resolve) => {
          finishers.push(() => resolve({ checked: 0, applied: 0, failed: 0 }));
        }),
    ),
  };
  return { service, finishRun: () => finishers.shift()!() };
}

describe('ReconciliationJob', () => {
  beforeAll(() => Logger.overrideLogger(false)); // the failing run's error line is expected
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());
  const job = (intervalMs: number, service: { runOnce: jest.Mock }) =>
    new ReconciliationJob({ jobIntervalMs: intervalMs } as AppConfig, service as unknown as ReconciliationService);

  it('never overlaps runs: a tick during a run is skipped', async () => {
    const { service, finishRun } = controllableRuns();
    const subject = job(1000, service);
    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(3500);
    expect(service.runOnce).toHaveBeenCalledTimes(1);
    finishRun();
    await jest.advanceTimersByTimeAsync(1000);
    expect(service.runOnce).toHaveBeenCalledTimes(2);
    finishRun();
    await subject.beforeApplicationShutdown();
  });

  it('does not schedule anything when JOB_INTERVAL_MS is 0', async () => {
    const { service } = controllableRuns();
    job(0, service).onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(service.runOnce).not.toHaveBeenCalled();
  });

  it('waits for the run in progress at shutdown, then runs no more', async () => {
    const { service, finishRun } = controllableRuns();
    const subject = job(1000, service);
    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = subject.beforeApplicationShutdown().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finishRun();
    await stopping;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(service.runOnce).toHaveBeenCalledTimes(1);
  });

  it('keeps going after a run that throws', async () => {
    const service = { runOnce: jest.fn().mockRejectedValueOnce(new Error('database gone')).mockResolvedValue({ checked: 0, applied: 0, failed: 0 }) };
    const subject = job(1000, service);
    subject.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(2000);
    expect(service.runOnce).toHaveBeenCalledTimes(2);
    await subject.beforeApplicationShutdown();
  });
});

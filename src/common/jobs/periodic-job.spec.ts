import { PeriodicJob } from './periodic-job';

/** A promise settled from outside, to hold a run in progress. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('PeriodicJob', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const logger = () => ({ error: jest.fn() });

  it('runs every interval, one run at a time: a tick during a run is skipped', async () => {
    const runs: ReturnType<typeof deferred>[] = [];
    const job = new PeriodicJob({ name: 'test job', intervalMs: 1000, logger: logger(), run: () => (runs.push(deferred()), runs[runs.length - 1]!.promise) });
    job.start();
    expect(runs).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(3000);
    expect(runs).toHaveLength(1);
    runs[0]!.resolve();
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs).toHaveLength(2);
    runs[1]!.resolve();
    await job.stop();
  });

  it('runs at start when asked to, and never with an interval of 0', async () => {
    const eager = jest.fn();
    const off = jest.fn();
    const eagerJob = new PeriodicJob({ name: 'eager', intervalMs: 1000, logger: logger(), run: eager, runAtStart: true });
    const offJob = new PeriodicJob({ name: 'off', intervalMs: 0, logger: logger(), run: off, runAtStart: true });
    eagerJob.start();
    offJob.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(eager).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(off).not.toHaveBeenCalled();
    await Promise.all([eagerJob.stop(), offJob.stop()]);
  });

  it('logs a failed run and tries again on the next tick', async () => {
    const log = logger();
    const run = jest.fn().mockRejectedValueOnce(new Error('database away')).mockResolvedValue(undefined);
    const job = new PeriodicJob({ name: 'flaky job', intervalMs: 1000, logger: log, run });
    job.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(log.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'flaky job failed; trying again on the next tick');
    await jest.advanceTimersByTimeAsync(1000);
    expect(run).toHaveBeenCalledTimes(2);
    await job.stop();
  });

  it('stop() waits for the run in progress, and no run starts after it', async () => {
    const held = deferred();
    const run = jest.fn(() => held.promise);
    const job = new PeriodicJob({ name: 'long job', intervalMs: 1000, logger: logger(), run });
    job.start();
    await jest.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(5000);
    expect(stopped).toBe(false);
    held.resolve();
    await stopping;
    expect(stopped).toBe(true);
    await jest.advanceTimersByTimeAsync(5000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

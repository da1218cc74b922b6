import { Logger } from '@nestjs/common';
import { type Reconciler, ReconciliationJobs } from './reconciliation';

/** A reconciler whose passes the test finishes when it wants to, and that stops early when asked. */
function controllablePasses() {
  const finishers: (() => void)[] = [];
  const reconciler = {
    runOnce: jest.fn(() => new Promise<object>((resolve) => finishers.push(() => resolve({ checked: 0 })))),
    stop: jest.fn(async () => {
      while (finishers.length) finishers.shift()!();
    }),
  };
  return { reconciler, finishPass: () => finishers.shift()!() };
}

describe('ReconciliationJobs (every feature reconciler, one lifecycle)', () => {
  beforeAll(() => Logger.overrideLogger(false)); // the failing pass's error line is expected
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());
  const jobs = (intervalMs: number, reconciler: Reconciler) => new ReconciliationJobs(intervalMs, [{ name: 'Test reconciliation', reconciler }]);

  it('never overlaps passes: a tick during a pass is skipped', async () => {
    const { reconciler, finishPass } = controllablePasses();
    const subject = jobs(1000, { runOnce: reconciler.runOnce });
    subject.start();
    await jest.advanceTimersByTimeAsync(3500);
    expect(reconciler.runOnce).toHaveBeenCalledTimes(1);
    finishPass();
    await jest.advanceTimersByTimeAsync(1000);
    expect(reconciler.runOnce).toHaveBeenCalledTimes(2);
    finishPass();
    await subject.stop();
  });

  it('does not schedule anything when JOB_INTERVAL_MS is 0', async () => {
    const { reconciler } = controllablePasses();
    jobs(0, reconciler).start();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(reconciler.runOnce).not.toHaveBeenCalled();
  });

  it('waits for the pass in progress at shutdown, then runs no more', async () => {
    const { reconciler, finishPass } = controllablePasses();
    const subject = jobs(1000, { runOnce: reconciler.runOnce });
    subject.start();
    await jest.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = subject.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finishPass();
    await stopping;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(reconciler.runOnce).toHaveBeenCalledTimes(1);
  });

  it('tells a long pass to stop at shutdown rather than waiting for it to end', async () => {
    const { reconciler } = controllablePasses();
    const subject = jobs(1000, reconciler);
    subject.start();
    await jest.advanceTimersByTimeAsync(1000);
    await subject.stop(); // would never resolve if it only waited for the pass
    expect(reconciler.stop).toHaveBeenCalled();
  });

  it('keeps going after a pass that throws', async () => {
    const reconciler = { runOnce: jest.fn().mockRejectedValueOnce(new Error('database gone')).mockResolvedValue({ checked: 0 }) };
    const subject = jobs(1000, reconciler);
    subject.start();
    await jest.advanceTimersByTimeAsync(2000);
    expect(reconciler.runOnce).toHaveBeenCalledTimes(2);
    await subject.stop();
  });
});

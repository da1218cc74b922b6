import { UpstreamError } from '../provider-adapter';
import { KeyedLimiter } from '../support/limits';
import { readBack } from './read-backs';

/** A confirm whose calls the test settles one by one. */
function scripted() {
  const calls: { entry: number; signal: AbortSignal; settle: (result: string | null | Error) => void }[] = [];
  const confirm = (entry: number, signal: AbortSignal) =>
    new Promise<string | null>((resolve, reject) => {
      calls.push({ entry, signal, settle: (result) => (result instanceof Error ? reject(result) : resolve(result)) });
    });
  return { calls, confirm };
}

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('readBack', () => {
  const options = (limit = 4) => ({ limiter: new KeyedLimiter(limit), limiterKey: 'pa_1', budgetMs: 60_000, label: 'PSP: callback' });

  it('reads two entries at first, then one more for each confirmed', async () => {
    const { calls, confirm } = scripted();
    const done = readBack([0, 1, 2, 3, 4], confirm, options());
    await flush();
    expect(calls.map((c) => c.entry)).toEqual([0, 1]);
    calls[0]!.settle('a');
    await flush();
    expect(calls.map((c) => c.entry)).toEqual([0, 1, 2, 3]);
    for (const call of calls.slice(1)) call.settle('ok');
    await flush();
    calls[4]!.settle('e');
    await expect(done).resolves.toEqual(['a', 'ok', 'ok', 'ok', 'e']);
  });

  it('starts nothing after the first entry the PSP does not confirm; what was in flight still counts', async () => {
    const { calls, confirm } = scripted();
    const done = readBack(
      Array.from({ length: 100 }, (_, i) => i),
      confirm,
      options(),
    );
    await flush();
    calls[0]!.settle(null);
    await flush();
    calls[1]!.settle('genuine');
    const results = await done;
    expect(calls).toHaveLength(2);
    expect(results.slice(0, 3)).toEqual([null, 'genuine', undefined]);
  });

  it('aborts every sibling when one read fails, and throws that failure once they have stopped', async () => {
    const { calls, confirm } = scripted();
    const failure = new UpstreamError({ kind: 'http', upstreamStatus: 503, message: 'PSP: read pix: HTTP 503' });
    const done = readBack([0, 1, 2], confirm, options());
    await flush();
    calls[1]!.signal.addEventListener('abort', () => calls[1]!.settle(calls[1]!.signal.reason as Error));
    calls[0]!.settle(failure);
    await expect(done).rejects.toBe(failure);
    expect(calls.every((c) => c.signal.aborted)).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('shares the cap of an account between callbacks', async () => {
    const { calls, confirm } = scripted();
    const o = options(3);
    const first = readBack([0, 1], confirm, o);
    const second = readBack([2, 3], confirm, o);
    await flush();
    expect(calls).toHaveLength(3);
    expect(o.limiter.load('pa_1')).toBe(4);
    calls[0]!.settle('x');
    await flush();
    expect(calls).toHaveLength(4);
    for (const call of calls.slice(1)) call.settle('x');
    await expect(Promise.all([first, second])).resolves.toEqual([
      ['x', 'x'],
      ['x', 'x'],
    ]);
  });

  it('aborts what is still reading when the callback’s budget is spent, as a timeout', async () => {
    const { calls, confirm } = scripted();
    const done = readBack([0], confirm, { ...options(), budgetMs: 20 });
    await flush();
    calls[0]!.signal.addEventListener('abort', () => calls[0]!.settle(calls[0]!.signal.reason as Error));
    await expect(done).rejects.toMatchObject({ kind: 'timeout' });
  });
});

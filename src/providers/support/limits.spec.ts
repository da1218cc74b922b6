import { FakeClock } from '../../testing/fake-clock';
import { UpstreamError } from '../provider-adapter';
import type { OutboundAnswer } from '../transport/transport';
import { KeyedLimiter, RateLimitGate, retryAfterMs, untilAborted } from './limits';

const tooMany = (retryAfter?: string): OutboundAnswer => ({ status: 429, headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter }, text: '' });

describe('retryAfterMs', () => {
  const now = new Date('2026-01-15T12:00:00Z');
  it('reads seconds and HTTP dates, falls back when there is none, and caps at ten minutes', () => {
    expect(retryAfterMs(tooMany('20'), now, 5_000)).toBe(20_000);
    expect(retryAfterMs(tooMany('Thu, 15 Jan 2026 12:00:30 GMT'), now, 5_000)).toBe(30_000);
    expect(retryAfterMs(tooMany(), now, 5_000)).toBe(5_000);
    expect(retryAfterMs(tooMany('soon'), now, 5_000)).toBe(5_000);
    expect(retryAfterMs(tooMany('86400'), now, 5_000)).toBe(600_000);
  });
});

describe('RateLimitGate', () => {
  it('fails calls of a key at once as 429 until the wait is over; other keys go on', () => {
    const clock = new FakeClock();
    const gate = new RateLimitGate(() => clock.now());
    gate.record('pa_1|payments', 'PSP: read charge', tooMany('20'), 5_000);
    let refused: unknown;
    try {
      gate.check('pa_1|payments', 'PSP: read charge');
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused).toMatchObject({ kind: 'http', upstreamStatus: 429 });
    expect((refused as UpstreamError).ambiguous).toBe(false);
    expect(() => gate.check('pa_1|callbacks', 'x')).not.toThrow();
    clock.advance(19_999);
    expect(() => gate.check('pa_1|payments', 'x')).toThrow(UpstreamError);
    clock.advance(1);
    expect(() => gate.check('pa_1|payments', 'x')).not.toThrow();
  });
});

describe('KeyedLimiter', () => {
  it('runs at most `limit` tasks per key at once, in order, and forgets idle keys', async () => {
    const limiter = new KeyedLimiter(2);
    const signal = new AbortController().signal;
    let running = 0;
    let peak = 0;
    const releases: (() => void)[] = [];
    const task = () =>
      new Promise<void>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        releases.push(() => {
          running--;
          resolve();
        });
      });
    const all = Promise.all(Array.from({ length: 5 }, () => limiter.run('a', signal, task)));
    const other = limiter.run('b', signal, async () => 'b');
    await expect(other).resolves.toBe('b');
    expect(limiter.load('a')).toBe(5);
    for (let released = 0; released < 5;) {
      await Promise.resolve();
      const release = releases.shift();
      if (release) {
        release();
        released++;
      }
    }
    await all;
    expect(peak).toBe(2);
    expect(limiter.load('a')).toBe(0);
  });

  it('lets an aborted waiter leave the queue without running', async () => {
    const limiter = new KeyedLimiter(1);
    let release!: () => void;
    const first = limiter.run('a', new AbortController().signal, () => new Promise<void>((resolve) => (release = resolve)));
    const controller = new AbortController();
    let ran = false;
    const waiting = limiter.run('a', controller.signal, async () => {
      ran = true;
    });
    controller.abort(new Error('sibling failed'));
    await expect(waiting).rejects.toThrow('sibling failed');
    expect(limiter.load('a')).toBe(1);
    release();
    await first;
    expect(ran).toBe(false);
    expect(limiter.load('a')).toBe(0);
  });
});

describe('untilAborted', () => {
  it('stops waiting as soon as the signal aborts, whatever the work does', async () => {
    const controller = new AbortController();
    const never = new Promise<never>(() => undefined);
    const waiting = untilAborted(never, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await expect(untilAborted(Promise.resolve(1), new AbortController().signal)).resolves.toBe(1);
  });
});

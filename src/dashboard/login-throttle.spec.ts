import { LoginThrottle, LoginThrottlePolicy } from './login-throttle';

const policy: LoginThrottlePolicy = { freeFailures: 3, baseBlockMs: 1_000, maxBlockMs: 8_000, forgetAfterMs: 60_000, maxEntries: 4 };

function throttle() {
  let now = 1_000_000;
  const t = new LoginThrottle(policy, () => now);
  return { t, advance: (ms: number) => (now += ms) };
}

describe('LoginThrottle', () => {
  it('lets the free failures through, then blocks for a time that doubles with each failure, up to the maximum', () => {
    const { t } = throttle();
    const keys = ['ip:1.2.3.4'];
    for (let i = 0; i < 3; i++) t.recordFailure(keys);
    expect(t.retryAfterMs(keys)).toBe(0);
    const waits = [];
    for (let i = 0; i < 6; i++) {
      t.recordFailure(keys);
      waits.push(t.retryAfterMs(keys));
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('frees a key when its block has passed', () => {
    const { t, advance } = throttle();
    for (let i = 0; i < 4; i++) t.recordFailure(['email:a@b.c']);
    expect(t.retryAfterMs(['email:a@b.c'])).toBe(1_000);
    advance(1_000);
    expect(t.retryAfterMs(['email:a@b.c'])).toBe(0);
  });

  it('answers with the longest wait of the keys asked about, and keeps keys apart', () => {
    const { t } = throttle();
    for (let i = 0; i < 5; i++) t.recordFailure(['ip:1', 'email:x']);
    t.recordFailure(['ip:1']);
    expect(t.retryAfterMs(['ip:1', 'email:x'])).toBe(4_000);
    expect(t.retryAfterMs(['email:x'])).toBe(2_000);
    expect(t.retryAfterMs(['ip:2', 'email:y'])).toBe(0);
  });

  it('forgets failures long after the last one, and clears them on success', () => {
    const { t, advance } = throttle();
    for (let i = 0; i < 3; i++) t.recordFailure(['ip:1', 'ip:2']);
    advance(61_000);
    t.recordFailure(['ip:1']);
    expect(t.retryAfterMs(['ip:1'])).toBe(0);
    t.recordSuccess(['ip:2']);
    t.recordFailure(['ip:2']);
    expect(t.retryAfterMs(['ip:2'])).toBe(0);
  });

  it('keeps at most maxEntries keys, dropping the least recently failed', () => {
    const { t } = throttle();
    for (let i = 0; i < 4; i++) t.recordFailure(['ip:old']);
    for (const key of ['a', 'b', 'c', 'd']) t.recordFailure([key]);
    expect(t.retryAfterMs(['ip:old'])).toBe(0);
  });
});

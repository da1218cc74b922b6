import { FakeClock } from '../../../test/helpers/fake-clock';
import { type AccessToken, earlyBy, TokenCache } from './token-cache';

describe('TokenCache', () => {
  const clock = new FakeClock('2026-01-15T12:00:00Z');
  const issue = (value: string, seconds: number): AccessToken => ({ value, issuedAt: clock.now(), expiresAt: new Date(clock.now().getTime() + seconds * 1000) });

  it('fetches once for a burst of callers (single flight)', async () => {
    const cache = new TokenCache(() => clock.now());
    let fetches = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fetch = async () => {
      fetches++;
      await gate;
      return issue('t1', 3600);
    };
    const burst = Array.from({ length: 20 }, () => cache.get('acct', fetch));
    release();
    const tokens = await Promise.all(burst);
    expect(fetches).toBe(1);
    expect(new Set(tokens.map((token) => token.value))).toEqual(new Set(['t1']));
  });

  it('keeps a token until shortly before it expires: a minute early for an hour-long one', async () => {
    const cache = new TokenCache(() => clock.now());
    let n = 0;
    const fetch = async () => issue(`t${++n}`, 3600);
    await expect(cache.get('acct', fetch)).resolves.toMatchObject({ value: 't1' });
    clock.advance(3540_000 - 1);
    await expect(cache.get('acct', fetch)).resolves.toMatchObject({ value: 't1' });
    clock.advance(1);
    await expect(cache.get('acct', fetch)).resolves.toMatchObject({ value: 't2' });
  });

  it('gives a short-lived token up a tenth of its life early (Itaú: 5 minutes, 30 s)', () => {
    expect(earlyBy(issue('t', 300))).toBe(30_000);
    expect(earlyBy(issue('t', 3600))).toBe(60_000);
  });

  it('keeps tokens apart per key', async () => {
    const cache = new TokenCache(() => clock.now());
    await cache.get('a', async () => issue('ta', 3600));
    await expect(cache.get('b', async () => issue('tb', 3600))).resolves.toMatchObject({ value: 'tb' });
    await expect(cache.get('a', async () => issue('other', 3600))).resolves.toMatchObject({ value: 'ta' });
  });

  it('drops a refused token once: invalidating an old one leaves its replacement alone', async () => {
    const cache = new TokenCache(() => clock.now());
    const first = await cache.get('acct', async () => issue('t1', 3600));
    cache.invalidate('acct', first);
    const second = await cache.get('acct', async () => issue('t2', 3600));
    cache.invalidate('acct', first); // a late 401 for the old token
    await expect(cache.get('acct', async () => issue('t3', 3600))).resolves.toBe(second);
  });

  it('does not keep a failed fetch: the next caller tries again', async () => {
    const cache = new TokenCache(() => clock.now());
    await expect(cache.get('acct', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await expect(cache.get('acct', async () => issue('t1', 3600))).resolves.toMatchObject({ value: 't1' });
  });

  it('forgets an account by prefix, and everything on clear', async () => {
    const cache = new TokenCache(() => clock.now());
    await cache.get('pa_1|v1', async () => issue('t1', 3600));
    await cache.get('pa_2|v1', async () => issue('t2', 3600));
    cache.forget('pa_1|');
    await expect(cache.get('pa_1|v1', async () => issue('new1', 3600))).resolves.toMatchObject({ value: 'new1' });
    await expect(cache.get('pa_2|v1', async () => issue('new2', 3600))).resolves.toMatchObject({ value: 't2' });
    cache.clear();
    await expect(cache.get('pa_2|v1', async () => issue('new2', 3600))).resolves.toMatchObject({ value: 'new2' });
  });
});

import { FakeClock } from '../../testing/fake-clock';
import { type AccessToken, earlyBy, TokenCache, tokenKey } from './token-cache';

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

describe('TokenCache: refusals and fresh tokens', () => {
  const clock = new FakeClock('2026-01-15T12:00:00Z');
  const issue = (value: string): AccessToken => ({ value, issuedAt: clock.now(), expiresAt: new Date(clock.now().getTime() + 3600_000) });
  const refused = new Error('invalid_client');
  const isRefusal = (error: unknown) => error === refused;

  it('remembers a refusal for its window: the same error, without fetching', async () => {
    const cache = new TokenCache({ now: () => clock.now(), isRefusal, refusalMs: 30_000 });
    let fetches = 0;
    const refuse = async (): Promise<AccessToken> => {
      fetches++;
      throw refused;
    };
    await expect(cache.get('k', refuse)).rejects.toBe(refused);
    await expect(cache.get('k', refuse)).rejects.toBe(refused);
    clock.advance(29_999);
    await expect(cache.get('k', refuse)).rejects.toBe(refused);
    expect(fetches).toBe(1);
    clock.advance(1);
    await expect(cache.get('k', async () => issue('t1'))).resolves.toMatchObject({ value: 't1' });
  });

  it('fresh() fetches whatever is cached or refused, and its token then serves get()', async () => {
    const cache = new TokenCache({ now: () => clock.now(), isRefusal });
    await cache.get('k', async () => issue('old'));
    await expect(cache.fresh('k', async () => issue('new'))).resolves.toMatchObject({ value: 'new' });
    await expect(cache.get('k', async () => issue('other'))).resolves.toMatchObject({ value: 'new' });
    await expect(
      cache.fresh('k', async () => {
        throw refused;
      }),
    ).rejects.toBe(refused);
    await expect(cache.get('k', async () => issue('never'))).resolves.toMatchObject({ value: 'new' }); // the live token still serves
  });
});

describe('tokenKey', () => {
  const parts = ['pix-api', 'https://psp.example/v2', 'https://psp.example/oauth/token', 'client', 'the-secret', 'CERT', 'KEY', null];

  it('differs when anything that defines the token differs, and keeps no part in clear', () => {
    const key = tokenKey('pa_1', parts);
    expect(key.startsWith('pa_1|')).toBe(true);
    expect(key).not.toContain('the-secret');
    expect(key).not.toContain('psp.example');
    for (let i = 0; i < parts.length; i++) {
      const changed = parts.map((part, j) => (j === i ? `${part ?? ''}x` : part));
      expect(tokenKey('pa_1', changed)).not.toBe(key);
    }
    expect(tokenKey('pa_1', [...parts])).toBe(key);
    // Parts are length-prefixed: moving a character from one to the next is another key.
    expect(tokenKey('pa_1', ['ab', 'c'])).not.toBe(tokenKey('pa_1', ['a', 'bc']));
  });
});

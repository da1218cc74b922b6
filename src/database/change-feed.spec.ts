import { Logger } from '@nestjs/common';
import { ChangeFeed, LiveCache } from './change-feed';

/** A feed over a fake LISTEN: `notify` delivers a payload, `lose` drops the connection. */
async function liveFeed() {
  let deliver: (payload: string) => void = () => undefined;
  let lost: () => void = () => undefined;
  const feed = new ChangeFeed({
    listen: (_channel, onPayload, onLost) => {
      deliver = onPayload;
      lost = onLost;
      return Promise.resolve(() => Promise.resolve());
    },
  });
  await feed.start();
  return { feed, notify: (table: string) => deliver(table), lose: () => lost() };
}

/** A loader that counts its calls and answers `value` (or what `next` says). */
function counter<V>(value: V) {
  const calls = { count: 0, next: value };
  return { calls, load: () => (calls.count++, Promise.resolve(calls.next)) };
}

describe('LiveCache', () => {
  it('answers from memory while the feed is live, until a watched table changes', async () => {
    const { feed, notify } = await liveFeed();
    const cache = new LiveCache<string, string>(feed, ['api_keys'], { ttlMs: 60_000, maxEntries: 10 });
    const { calls, load } = counter('a');
    await cache.get('k', load);
    await cache.get('k', load);
    notify('payments');
    expect(await cache.get('k', load)).toBe('a');
    expect(calls.count).toBe(1);
    calls.next = 'b';
    notify('api_keys');
    expect(await cache.get('k', load)).toBe('b');
    expect(calls.count).toBe(2);
  });

  it('reads through while the feed is not listening, and forgets everything when it is lost', async () => {
    const { feed, lose } = await liveFeed();
    const cache = new LiveCache<string, string>(feed, ['api_keys'], { ttlMs: 60_000, maxEntries: 10 });
    const { calls, load } = counter('a');
    await cache.get('k', load);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    lose();
    await cache.get('k', load);
    await cache.get('k', load);
    expect(calls.count).toBe(3);
    expect(feed.live).toBe(false);
    expect(warn).toHaveBeenCalledWith('Lost the change notifications; lookups go to the database until they are back');
    warn.mockRestore();
    await feed.onApplicationShutdown();
  });

  it('does not keep a load that was under way when a change arrived', async () => {
    const { feed, notify } = await liveFeed();
    const cache = new LiveCache<string, string>(feed, ['api_keys'], { ttlMs: 60_000, maxEntries: 10 });
    let release: (value: string) => void = () => undefined;
    const stale = cache.get('k', () => new Promise<string>((resolve) => (release = resolve)));
    notify('api_keys');
    release('read before the change');
    expect(await stale).toBe('read before the change');
    expect(await cache.get('k', () => Promise.resolve('fresh'))).toBe('fresh');
  });

  it('keeps only what `keep` allows, and nothing past its age', async () => {
    const { feed } = await liveFeed();
    const cache = new LiveCache<string, string | null>(feed, [], { ttlMs: 0, maxEntries: 10, keep: (v) => v !== null });
    const missing = counter<string | null>(null);
    await cache.get('unknown', missing.load);
    await cache.get('unknown', missing.load);
    expect(missing.calls.count).toBe(2);
    const aged = counter<string | null>('a');
    await cache.get('k', aged.load);
    await cache.get('k', aged.load);
    expect(aged.calls.count).toBe(2);
  });

  it("tells this process's caches of its own writes at once", async () => {
    const { feed } = await liveFeed();
    const cache = new LiveCache<string, string>(feed, ['merchants'], { ttlMs: 60_000, maxEntries: 10 });
    const { calls, load } = counter('a');
    await cache.get('k', load);
    feed.changed('merchants');
    await cache.get('k', load);
    expect(calls.count).toBe(2);
  });
});

describe('ChangeFeed', () => {
  it('listens once when started twice at the same time, and closes a connection that opens after shutdown', async () => {
    let listens = 0;
    let closed = 0;
    let open: () => void = () => undefined;
    const feed = new ChangeFeed({
      listen: () => {
        listens++;
        return new Promise((resolve) => (open = () => resolve(() => Promise.resolve(void closed++))));
      },
    });
    const first = feed.start();
    const second = feed.start();
    await feed.onApplicationShutdown();
    open();
    await Promise.all([first, second]);
    expect({ listens, closed, live: feed.live }).toEqual({ listens: 1, closed: 1, live: false });
  });
});

import { AppConfig } from '../../config/app-config';
import { LimiterStore } from './limiter-store';

describe('LimiterStore', () => {
  it('empties its in-memory windows when the app closes, so no count (nor its timer) outlives the app', async () => {
    const store = new LimiterStore(new AppConfig({} as never));
    const limiter = store.create({ name: 'login', points: 5, duration: 600 });
    await limiter.consume('203.0.113.7');
    await limiter.consume('198.51.100.2');
    expect((await limiter.get('203.0.113.7'))?.consumedPoints).toBe(1);

    await store.onModuleDestroy();

    expect(await limiter.get('203.0.113.7')).toBeNull();
    expect(await limiter.get('198.51.100.2')).toBeNull();
  });
});

import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

// The embedded database's own tuning (src/database/database-options.ts); PostgreSQL is the operator's to tune.
(testDatabase() === 'embedded' ? describe : describe.skip)('embedded database settings', () => {
  let ctx: MediumContext;
  beforeAll(async () => {
    ctx = await newMediumContext();
  });
  afterAll(() => ctx.close());

  const show = async (setting: string) => Object.values((await ctx.dataSource.query<Record<string, string>[]>(`SHOW ${setting}`))[0]!)[0];

  it('keeps 16 MB of shared buffers in its WebAssembly memory, and initdb’s other settings as they were', async () => {
    expect(await show('shared_buffers')).toBe('16MB');
    expect(await show('TimeZone')).toBe('UTC');
    expect(await show('default_text_search_config')).toBe('pg_catalog.english');
  });
});

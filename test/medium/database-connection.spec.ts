import { eventually } from '../helpers/eventually';
import { MediumContext, newMediumContext } from '../helpers/medium';

/**
 * What the gateway asks of its connection, on both databases. On the embedded one, `pg` talks to
 * PGlite over an in-process stream (src/database/embedded-stream.ts): an answer that spans many of
 * PGlite's output pieces, an error in the middle of a transaction, and a NOTIFY heard by the
 * connection that committed it all come back as they do from a server.
 */
describe('the database connection', () => {
  let ctx: MediumContext;
  beforeAll(async () => {
    ctx = await newMediumContext();
  });
  afterAll(() => ctx.close());

  it('reads an answer of several megabytes whole', async () => {
    const [row] = await ctx.dataSource.query<{ text: string }[]>(`SELECT repeat('ação', $1::int) AS text`, [1_000_000]);
    expect(row!.text.length).toBe(4_000_000);
    expect(row!.text.slice(-8)).toBe('açãoação');
  });

  it('fails the statement that errs, rolls its transaction back, and answers the next one', async () => {
    await ctx.dataSource.query(`CREATE TABLE connection_probe (n int PRIMARY KEY)`);
    await expect(
      ctx.dataSource.transaction(async (tx) => {
        await tx.query(`INSERT INTO connection_probe VALUES (1)`);
        await tx.query(`INSERT INTO connection_probe VALUES (1)`);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await ctx.dataSource.query(`SELECT count(*)::int AS n FROM connection_probe`)).toEqual([{ n: 0 }]);
  });

  it('hears a notification committed through the pool on the channel it listens to', async () => {
    const heard: string[] = [];
    const unlisten = await ctx.setup.listen(
      'connection_probe',
      (payload) => heard.push(payload),
      () => undefined,
    );
    try {
      await ctx.dataSource.transaction((tx) => tx.query(`SELECT pg_notify('connection_probe', 'committed')`));
      await ctx.dataSource
        .transaction(async (tx) => {
          await tx.query(`SELECT pg_notify('connection_probe', 'rolled back')`);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await ctx.dataSource.query(`SELECT pg_notify('connection_probe', 'marker')`);
      // PostgreSQL's listener is a connection of its own, which hears them a moment after the commit.
      await eventually(
        () => heard,
        (payloads) => payloads.includes('marker'),
      );
      expect(heard).toEqual(['committed', 'marker']);
    } finally {
      await unlisten();
    }
  });
});

import { DataSource } from 'typeorm';
import { ALL_MIGRATIONS } from '../../migrations';
import { runMigrations } from '../../src/database/database.module';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

/** Tables, columns, indexes and constraints of the public schema, as text that two schemas can be compared by. */
async function schemaOf(dataSource: DataSource): Promise<string[]> {
  const columns = await dataSource.query(
    `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'migrations'`,
  );
  const indexes = await dataSource.query(`SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename <> 'migrations'`);
  const constraints = await dataSource.query(
    `SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS line
       FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> 'migrations'`,
  );
  return [...columns, ...indexes, ...constraints].map((row: { line: string }) => row.line).sort();
}

describe(`migrations (${testDatabase()} database)`, () => {
  // A database migrated as the gateway migrates it at boot (newMediumContext runs runMigrations).
  const kind = testDatabase();
  let ctx: MediumContext;
  let dataSource: DataSource;
  beforeAll(async () => {
    ctx = await newMediumContext();
    dataSource = ctx.dataSource;
  });
  afterAll(() => ctx.close());

  it('go down one by one to an empty schema, and up again to the same schema', async () => {
    await runMigrations(dataSource, kind);
    const migrated = await schemaOf(dataSource);
    expect(migrated.length).toBeGreaterThan(0);

    for (const _migration of ALL_MIGRATIONS) await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await schemaOf(dataSource)).toEqual([]);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM migrations`)).toEqual([{ n: 0 }]);

    await runMigrations(dataSource, kind);
    expect(await schemaOf(dataSource)).toEqual(migrated);
  });

  it('leave nothing pending after a start, and running them again changes nothing', async () => {
    await runMigrations(dataSource, kind);
    const before = await schemaOf(dataSource);
    expect(await dataSource.showMigrations()).toBe(false);
    await runMigrations(dataSource, kind);
    expect(await schemaOf(dataSource)).toEqual(before);
  });
});

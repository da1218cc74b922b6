import { DataSource } from 'typeorm';
import { ALL_MIGRATIONS } from '../../migrations';
import { loadConfig } from '../../src/config/load-config';
import { createDatabaseSetup, DatabaseSetup } from '../../src/database/database-options';
import { runMigrations } from '../../src/database/database.module';
import { createTestPostgresDatabase, testDatabase, testEnv } from '../helpers/test-app';

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
  const kind = testDatabase();
  let setup: DatabaseSetup;
  let dataSource: DataSource;
  let drop = (): Promise<void> => Promise.resolve();
  beforeAll(async () => {
    const pg = kind === 'postgres' ? await createTestPostgresDatabase() : undefined;
    if (pg) drop = pg.drop;
    const { config } = loadConfig(testEnv(pg ? { DATABASE_URL: pg.url } : {}), { persistGenerated: false });
    setup = await createDatabaseSetup(config);
    dataSource = await new DataSource(setup.options).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await setup?.close();
    await drop();
  });

  it('go down one by one to an empty schema, and up again to the same schema', async () => {
    await runMigrations(dataSource, setup.kind);
    const migrated = await schemaOf(dataSource);
    expect(migrated.length).toBeGreaterThan(0);

    for (const _migration of ALL_MIGRATIONS) await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await schemaOf(dataSource)).toEqual([]);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM migrations`)).toEqual([{ n: 0 }]);

    await runMigrations(dataSource, setup.kind);
    expect(await schemaOf(dataSource)).toEqual(migrated);
  });

  it('leave nothing pending after a start, and running them again changes nothing', async () => {
    await runMigrations(dataSource, setup.kind);
    const before = await schemaOf(dataSource);
    expect(await dataSource.showMigrations()).toBe(false);
    await runMigrations(dataSource, setup.kind);
    expect(await schemaOf(dataSource)).toEqual(before);
  });
});

// Which database a spec runs on: one per Jest project (jest.config.js). Kept free of heavy imports,
// so specs that need only these do not load the app.

export type TestDatabaseKind = 'embedded' | 'postgres';

/**
 * The database this Jest project runs its specs on. jest.config.js runs every integration and e2e
 * spec once on the embedded database and, when TEST_DATABASE_URL is set, once more on PostgreSQL
 * (projects `integration:postgres` and `e2e:postgres`, which set TEST_DB=postgres). startTestApp()
 * and startGatewayProcess() boot on it unless told otherwise.
 */
export function testDatabase(): TestDatabaseKind {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'embedded';
}

/** [testDatabase()], for specs written as `describe.each(testDatabases())`: each project runs them on its own database. */
export function testDatabases(): TestDatabaseKind[] {
  return [testDatabase()];
}

const DATABASE_NAMES: Record<TestDatabaseKind, string> = { embedded: 'embedded database', postgres: 'PostgreSQL' };

/**
 * describe() for tests that can only run on one database, and why: in the other project the block
 * is skipped, and its title (which Jest lists with the skipped tests) gives the reason.
 * `describeOn('postgres', 'two processes share one database')('…', () => { … })`.
 */
export function describeOn(kind: TestDatabaseKind, reason: string): (title: string, fn: () => void) => void {
  return (title, fn) => (runsOn(kind) ? describe : describe.skip)(`${title} (${DATABASE_NAMES[kind]} only: ${reason})`, fn);
}

/** it() for one test that can only run on one database; see describeOn. */
export function itOn(kind: TestDatabaseKind, reason: string): (title: string, fn: () => Promise<void>, timeoutMs?: number) => void {
  return (title, fn, timeoutMs) => (runsOn(kind) ? it : it.skip)(`${title} (${DATABASE_NAMES[kind]} only: ${reason})`, fn, timeoutMs);
}

function runsOn(kind: TestDatabaseKind): boolean {
  return testDatabase() === kind && (kind === 'embedded' || Boolean(process.env.TEST_DATABASE_URL));
}

/**
 * describe() for specs that use no database at all (static checks, generated files): they run in
 * the embedded project only, rather than once per database, and say so in their title.
 */
export function describeOnce(title: string, fn: () => void): void {
  (testDatabase() === 'embedded' ? describe : describe.skip)(`${title} (no database: runs in the embedded project only)`, fn);
}

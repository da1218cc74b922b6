import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

/** Where a repository method runs: the data source's own manager, or the transaction it was handed. */
export type Executor = DataSource | EntityManager;

function managerOf(executor: Executor): EntityManager {
  return 'manager' in executor ? executor.manager : executor;
}

/**
 * Runs raw SQL and returns its rows whatever the command. TypeORM's `query()` answers UPDATE and
 * DELETE with `[rows, rowCount]` but other commands with the rows alone; this asks for the
 * structured result so RETURNING rows come back the same way for every statement.
 *
 * Only repositories (`*.repository.ts`) run SQL; services call their named methods.
 */
export async function sqlRows<T>(executor: Executor, sql: string, params: unknown[] = []): Promise<T[]> {
  const manager = managerOf(executor);
  const ownRunner = !manager.queryRunner;
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result = await runner.query(sql, params, true);
    return (result.records ?? []) as T[];
  } finally {
    if (ownRunner) await runner.release();
  }
}

/**
 * Turns a raw row into an instance of the entity, so a table is described once (by its entity) and
 * not again as a row type. Every column the row carries under its database name (after `prefix`,
 * for the columns of a joined table) is converted as TypeORM would load it (transformers included,
 * so `bigint` centavos become numbers); columns the statement did not select stay unset, and the
 * method that selects them says which in its return type (`Pick<Entity, …>`).
 */
export function hydrate<T extends ObjectLiteral>(executor: Executor, target: EntityTarget<T>, row: Record<string, unknown>, prefix = ''): T {
  const manager = managerOf(executor);
  const metadata = manager.connection.getMetadata(target);
  const entity = metadata.create() as T;
  for (const column of metadata.columns) {
    const name = prefix + column.databaseName;
    if (!(name in row)) continue;
    column.setEntityValue(entity, manager.connection.driver.prepareHydratedValue(row[name], column));
  }
  return entity;
}

/** `sqlRows` whose rows are the entity's (see `hydrate`). */
export async function sqlEntities<T extends ObjectLiteral>(executor: Executor, target: EntityTarget<T>, sql: string, params: unknown[] = []): Promise<T[]> {
  const rows = await sqlRows<Record<string, unknown>>(executor, sql, params);
  return rows.map((row) => hydrate(executor, target, row));
}

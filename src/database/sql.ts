import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs raw SQL and returns its rows whatever the command. TypeORM's `query()` answers UPDATE and
 * DELETE with `[rows, rowCount]` but other commands with the rows alone; this asks for the
 * structured result so RETURNING rows come back the same way for every statement.
 */
export async function sqlRows<T>(executor: DataSource | EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  const manager = 'manager' in executor ? executor.manager : executor;
  const ownRunner = !manager.queryRunner;
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    const result = await runner.query(sql, params, true);
    return (result.records ?? []) as T[];
  } finally {
    if (ownRunner) await runner.release();
  }
}

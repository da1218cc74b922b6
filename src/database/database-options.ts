import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import type { DataSourceOptions } from 'typeorm';
import { ALL_MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import { EmbeddedLock, OWNER_EXIT_WAIT_MS } from './embedded-lock';

export const IN_MEMORY_DATA_DIR = ':memory:';

/** What the data source needs, and what must be closed after it (TypeORM does not close PGlite). */
export interface DatabaseSetup {
  kind: 'postgres' | 'embedded';
  options: DataSourceOptions;
  close(): Promise<void>;
}

/**
 * PostgreSQL when DATABASE_URL is set; otherwise PGlite through its own `pg` adapter with a pool of
 * exactly one connection, which keeps transactions isolated (see docs/architecture.md, The embedded database).
 * `synchronize` is never on: the hand-written migrations in migrations/ are the schema.
 */
export async function createDatabaseSetup(config: AppConfig): Promise<DatabaseSetup> {
  const common = {
    type: 'postgres' as const,
    // Each feature module registers its own entities (TypeOrmModule.forFeature); the data source
    // collects them (autoLoadEntities in DatabaseModule), so this module imports no feature.
    migrations: ALL_MIGRATIONS,
    migrationsRun: false, // run under an advisory lock by DatabaseService
    synchronize: false,
    installExtensions: false,
    connectTimeoutMS: 10_000,
    logging: false,
  };
  if (config.databaseUrl) {
    return {
      kind: 'postgres',
      options: {
        ...common,
        url: config.databaseUrl.reveal(),
        poolSize: Number(process.env.DATABASE_POOL_SIZE ?? 20),
        extra: { idleTimeoutMillis: 30_000, application_name: 'pix-gateway' },
      },
      close: async () => undefined,
    };
  }
  const inMemory = config.dataDir === IN_MEMORY_DATA_DIR;
  const lock = inMemory
    ? undefined
    : await EmbeddedLock.acquire(config.dataDir, {
        onWait: (pid) => new Logger('Database').warn(`The embedded database is locked by pid ${pid}; waiting up to ${OWNER_EXIT_WAIT_MS / 1000} s for it to exit.`),
      });
  let pglite: PGlite;
  try {
    pglite = inMemory ? new PGlite() : new PGlite(join(config.dataDir, 'pgdata'));
    await pglite.waitReady;
  } catch (error) {
    lock?.release();
    throw error;
  }
  return {
    kind: 'embedded',
    options: {
      ...common,
      poolSize: 1,
      extra: { ...createPgConfig(pglite), idleTimeoutMillis: 0 },
    },
    close: async () => {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        lock?.release();
      }
    },
  };
}

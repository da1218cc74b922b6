import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { PGlite } from '@electric-sql/pglite';
import { Client, escapeIdentifier } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { ALL_MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import { EmbeddedLock, OWNER_EXIT_WAIT_MS } from './embedded-lock';
import { PGliteStream } from './embedded-stream';
import { PreparingClient } from './prepared-statements';

export const IN_MEMORY_DATA_DIR = ':memory:';
export const DATABASE_SETUP = Symbol('DATABASE_SETUP');

/**
 * PostgreSQL's 128 MB of shared buffers live inside PGlite's WebAssembly memory, which never
 * shrinks: 16 MB took a gateway under create load from ~650 MB to ~470 MB resident, and the
 * embedded database's pages stay in the operating system's file cache (docs/performance.md, Memory).
 */
// Start parameters, not `postgresqlconf`: that option rewrites postgresql.conf whole, losing initdb's settings (TimeZone UTC among them).
const EMBEDDED_TUNING = { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] };

/** What the data source needs, and what must be closed after it (TypeORM does not close PGlite). */
export interface DatabaseSetup {
  kind: 'postgres' | 'embedded';
  options: DataSourceOptions;
  close(): Promise<void>;
  /**
   * LISTENs on `channel`: `onPayload` gets each notification's payload, `onLost` is called once if
   * the listening connection is lost. Resolves with the function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
}

/**
 * PostgreSQL when DATABASE_URL is set; otherwise PGlite, through `pg` over an in-process stream, with a pool of
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
        poolSize: config.databasePoolSize,
        extra: { idleTimeoutMillis: 30_000, application_name: 'pix-gateway', ...preparing(config) },
      },
      close: async () => undefined,
      listen: (channel, onPayload, onLost) => listenOnPostgres(config.databaseUrl!.reveal(), channel, onPayload, onLost),
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
    pglite = inMemory ? new PGlite(EMBEDDED_TUNING) : new PGlite(join(config.dataDir, 'pgdata'), EMBEDDED_TUNING);
    await pglite.waitReady;
  } catch (error) {
    lock?.release();
    throw error;
  }
  // One session holds the embedded database, and `pg`'s connection is that session: it hears its
  // own NOTIFYs, which `pg` reads from the answers and each connection hands on here.
  const notifications = new EventEmitter();
  const Base: typeof Client = config.databasePreparedStatements ? PreparingClient : Client;
  class EmbeddedClient extends Base {
    constructor(options: ConstructorParameters<typeof Client>[0]) {
      super(options);
      this.on('notification', ({ channel, payload }) => notifications.emit(channel, payload ?? ''));
    }
  }
  return {
    kind: 'embedded',
    options: {
      ...common,
      poolSize: 1,
      extra: { Client: EmbeddedClient, stream: () => new PGliteStream(pglite), user: 'postgres', database: 'postgres', idleTimeoutMillis: 0 },
    },
    // It is never lost while open.
    listen: async (channel, onPayload) => {
      notifications.on(channel, onPayload);
      await pglite.exec(`LISTEN ${escapeIdentifier(channel)}`);
      return async () => {
        notifications.off(channel, onPayload);
        if (!pglite.closed && notifications.listenerCount(channel) === 0) await pglite.exec(`UNLISTEN ${escapeIdentifier(channel)}`);
      };
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

/** The pool's connection class: one that prepares its statements, unless DATABASE_PREPARED_STATEMENTS=false. */
function preparing(config: AppConfig): { Client?: typeof PreparingClient } {
  return config.databasePreparedStatements ? { Client: PreparingClient } : {};
}

/** A connection of its own (not the pool's: a pooled connection is handed to other queries) that LISTENs on PostgreSQL. */
async function listenOnPostgres(url: string, channel: string, onPayload: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>> {
  const client = new Client({ connectionString: url, application_name: 'pix-gateway-changes' });
  let closing = false;
  const lost = () => {
    if (!closing) onLost();
  };
  client.on('error', lost);
  client.on('end', lost);
  client.on('notification', (message) => {
    if (message.channel === channel) onPayload(message.payload ?? '');
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${channel}`);
  } catch (error) {
    closing = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return async () => {
    closing = true;
    await client.end();
  };
}

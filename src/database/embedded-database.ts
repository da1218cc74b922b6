import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { PGlite } from '@electric-sql/pglite';
import { Client, escapeIdentifier } from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { type DatabaseSetup, IN_MEMORY_DATA_DIR } from './database-setup';
import { EmbeddedLock, OWNER_EXIT_WAIT_MS } from './embedded-lock';
import { PGliteStream } from './embedded-stream';
import { poolClient } from './prepared-statements';

/**
 * PostgreSQL's 128 MB of shared buffers live inside PGlite's WebAssembly memory, which never
 * shrinks: 16 MB took a gateway under create load from ~650 MB to ~470 MB resident, and the
 * embedded database's pages stay in the operating system's file cache (docs/performance.md, Memory).
 */
// Start parameters, not `postgresqlconf`: that option rewrites postgresql.conf whole, losing initdb's settings (TimeZone UTC among them).
export const EMBEDDED_TUNING = { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] };

/**
 * PGlite under DATA_DIR (or in memory), through `pg` over an in-process stream with a pool of
 * exactly one connection, which keeps transactions isolated (docs/architecture.md, The embedded database).
 */
export async function createEmbeddedSetup(config: AppConfig, common: Omit<Extract<DataSourceOptions, { type: 'postgres' }>, 'poolSize' | 'extra'>): Promise<DatabaseSetup> {
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
  class EmbeddedClient extends poolClient(config) {
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

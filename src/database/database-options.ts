import { Client } from 'pg';
import { ALL_MIGRATIONS } from '../../migrations';
import { AppConfig } from '../config/app-config';
import type { DatabaseSetup } from './database-setup';
import { poolClient } from './prepared-statements';

export type { DatabaseSetup } from './database-setup';

export const DATABASE_SETUP = Symbol('DATABASE_SETUP');

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
        extra: { idleTimeoutMillis: 30_000, application_name: 'pix-gateway', Client: poolClient(config) },
      },
      close: async () => undefined,
      listen: (channel, onPayload, onLost) => listenOnPostgres(config.databaseUrl!.reveal(), channel, onPayload, onLost),
    };
  }
  // Loaded only here, so a gateway on PostgreSQL never loads PGlite's module.
  const { createEmbeddedSetup } = await import('./embedded-database.js');
  return createEmbeddedSetup(config, common);
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

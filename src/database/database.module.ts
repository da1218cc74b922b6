import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DatabaseOutage } from '../common/errors/database-outage';
import { ShutdownProgress } from '../common/lifecycle/shutdown-progress';
import { AppConfig } from '../config/app-config';
import { DatabaseHealth } from './database-health';
import { ChangeFeed } from './change-feed';
import { createDatabaseSetup, DATABASE_SETUP, DatabaseSetup } from './database-options';

/** Arbitrary, fixed key for the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_KEY = 724_119_001;

/**
 * Runs the migrations. On PostgreSQL an advisory lock makes concurrent starts take turns (two
 * gateway processes booting together must not both create the tables); the embedded database has
 * a single process by construction, and its one connection must stay free for the migrations.
 */
export async function runMigrations(dataSource: DataSource, kind: DatabaseSetup['kind']): Promise<void> {
  if (kind === 'embedded') {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}

@Global()
@Module({
  providers: [{ provide: DATABASE_SETUP, inject: [AppConfig], useFactory: (config: AppConfig) => createDatabaseSetup(config) }, ChangeFeed],
  exports: [DATABASE_SETUP, ChangeFeed],
})
class DatabaseSetupModule {}

/** Closes PGlite after TypeORM lets go of it (TypeORM's destroy() does not close it). */
@Injectable()
class DatabaseCloser implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  constructor(
    @Inject(DATABASE_SETUP) private readonly setup: DatabaseSetup,
    private readonly dataSource: DataSource,
    // Told when the close starts and ends, so that a shutdown cut short says the close was abandoned.
    @Optional() private readonly shutdown?: ShutdownProgress,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.shutdown?.enter('closing-database');
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.setup.close();
    this.shutdown?.enter('closed');
    this.logger.log(`${this.setup.kind === 'embedded' ? 'Embedded database' : 'PostgreSQL pool'} closed`);
  }
}

@Module({
  imports: [
    DatabaseSetupModule,
    TypeOrmModule.forRootAsync({
      inject: [DATABASE_SETUP],
      useFactory: (setup: DatabaseSetup) => ({ ...setup.options, autoLoadEntities: true, retryAttempts: 2, retryDelay: 1000 }),
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        return dataSource;
      },
    }),
  ],
  providers: [
    DatabaseCloser,
    DatabaseHealth,
    // The outage log's end is found with /health's own ping.
    { provide: DatabaseOutage, inject: [DatabaseHealth], useFactory: (health: DatabaseHealth) => new DatabaseOutage((timeoutMs) => health.ping(timeoutMs)) },
    {
      provide: 'DATABASE_MIGRATED',
      inject: [DataSource, DATABASE_SETUP],
      useFactory: async (dataSource: DataSource, setup: DatabaseSetup) => {
        await runMigrations(dataSource, setup.kind);
        return true;
      },
    },
  ],
  exports: ['DATABASE_MIGRATED', DatabaseHealth, DatabaseOutage],
})
export class DatabaseModule {}

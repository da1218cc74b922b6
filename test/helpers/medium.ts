// The medium tier (test/medium/): repositories and services against a real database, built with
// their real collaborators in a Nest testing module, without the app, its jobs or HTTP. A spec
// pays for a database and the few classes it tests, not for booting the gateway.
import { randomBytes } from 'node:crypto';
import { DynamicModule, Global, Module, type ModuleMetadata, type Provider, type Type } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { AppConfig } from '../../src/config/app-config';
import { loadConfig } from '../../src/config/load-config';
import { AdminSession } from '../../src/dashboard/admin-session.entity';
import { CHANGE_CHANNEL, ChangeFeed } from '../../src/database/change-feed';
import { createDatabaseSetup, DatabaseSetup } from '../../src/database/database-options';
import { runMigrations } from '../../src/database/database.module';
import { WebhookDeliveryAttempt } from '../../src/deliveries/webhook-delivery-attempt.entity';
import { WebhookDelivery } from '../../src/deliveries/webhook-delivery.entity';
import { Clock, SystemClock } from '../../src/domain/clock';
import { IdempotencyRecord } from '../../src/idempotency/idempotency-record.entity';
import { ApiKey } from '../../src/merchants/api-key.entity';
import { Merchant } from '../../src/merchants/merchant.entity';
import { Payment } from '../../src/payments/payment.entity';
import { PaymentAttempt } from '../../src/payments/routing/payment-attempt.entity';
import { Refund } from '../../src/payments/refunds/refund.entity';
import { MerchantProviderAccount, ProviderAccount } from '../../src/providers/provider-accounts/provider-account.entity';
import { PaymentEvent } from '../../src/payments/lifecycle/payment-event.entity';
import { InvariantCheck, InvariantMismatch } from '../../src/payments/invariant/invariant-check.entity';
import { RecurrenceEvent } from '../../src/recurrences/recurrence-event.entity';
import { Recurrence } from '../../src/recurrences/recurrence.entity';
import { RecurringCharge } from '../../src/recurrences/recurring-charge.entity';
import { PaymentBatch, PaymentBatchItem } from '../../src/payment-batches/payment-batch.entity';
import { PaymentLink, PaymentLinkOpen } from '../../src/payment-links/payment-link.entity';
import { Factories } from './factories';
import { createTestPostgresDatabase, testDatabase, testEnv } from './test-env';

/** Every entity: the feature modules register them (forFeature), and no feature module is loaded here. */
export const ENTITIES = [
  Merchant,
  ApiKey,
  Payment,
  PaymentAttempt,
  Refund,
  PaymentEvent,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  IdempotencyRecord,
  ProviderAccount,
  MerchantProviderAccount,
  AdminSession,
  Recurrence,
  RecurringCharge,
  RecurrenceEvent,
  InvariantCheck,
  InvariantMismatch,
  PaymentBatch,
  PaymentBatchItem,
  PaymentLink,
  PaymentLinkOpen,
];

/** A migrated database of this project's kind (testDatabase()), the factories on it, and the units under test. */
export class MediumContext extends Factories {
  private readonly modules: TestingModule[] = [];
  /**
   * The modules' change feed. Not started: lookups read through to the database, as in a process
   * whose feed is not listening; a spec about the caches starts it (`await ctx.changes.start()`).
   */
  readonly changes: ChangeFeed;

  constructor(
    dataSource: DataSource,
    readonly config: AppConfig,
    readonly clock: Clock,
    readonly setup: DatabaseSetup,
    private readonly dropDatabase: () => Promise<void>,
  ) {
    super(dataSource, new SecretBox(config));
    this.changes = new ChangeFeed(setup);
  }

  /**
   * A testing module of `providers` (the classes under test and their collaborators, the real ones)
   * and `imports` (feature modules such as ProvidersModule), over what every feature takes as given:
   * the DataSource and its repositories, AppConfig, the Clock and SecretBox. One module shares its
   * instances: get the classes that must see each other's state from the same one.
   */
  async module(providers: Provider[], imports: NonNullable<ModuleMetadata['imports']> = []): Promise<TestingModule> {
    const moduleRef = await Test.createTestingModule({ imports: [this.givens(), ...imports], providers }).compile();
    // Quiet as the app's logger is at LOG_LEVEL=silent (testEnv; TEST_LOG_LEVEL=debug shows the logs).
    if (this.config.logLevel === 'silent') moduleRef.useLogger(false);
    this.modules.push(moduleRef);
    return moduleRef;
  }

  /** `type` built by module([type, ...collaborators]): the usual case of one class under test. */
  async get<T>(type: Type<T>, collaborators: Provider[] = [], imports: NonNullable<ModuleMetadata['imports']> = []): Promise<T> {
    return (await this.module([type, ...collaborators], imports)).get(type);
  }

  /** Resolves with the next change `feed` hears of `table`. */
  nextChange(table: string, feed: ChangeFeed = this.changes): Promise<void> {
    return new Promise<void>((resolve) => {
      const stop = feed.subscribe((changed) => {
        if (changed === table) resolve(void stop());
      });
    });
  }

  /**
   * Resolves once `feed` has heard the notification of every change committed before the call.
   * A write's notification arrives on the listening connection some time after its commit, and
   * clears the caches when it does; a spec that counts lookups waits for it first. The database
   * delivers notifications in commit order, so hearing a marker sent now means the earlier ones are in.
   */
  async caughtUp(feed: ChangeFeed = this.changes): Promise<void> {
    const marker = `caught_up_${randomBytes(6).toString('hex')}`;
    const heard = this.nextChange(marker, feed);
    await this.dataSource.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, marker]);
    await heard;
  }

  async close(): Promise<void> {
    for (const moduleRef of this.modules) await moduleRef.close();
    await this.changes.onApplicationShutdown();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.setup.close();
    await this.dropDatabase();
  }

  /** Global, so that imported feature modules (ProvidersModule needs AppConfig and the Clock) see them too. */
  private givens(): DynamicModule {
    const providers: Provider[] = [
      { provide: DataSource, useValue: this.dataSource },
      ...ENTITIES.map((entity) => ({ provide: getRepositoryToken(entity), useValue: this.dataSource.getRepository(entity) })),
      { provide: AppConfig, useValue: this.config },
      { provide: Clock, useValue: this.clock },
      { provide: SecretBox, useValue: this.secrets },
      { provide: ChangeFeed, useValue: this.changes },
    ];
    return { module: MediumGivens, global: true, providers, exports: providers };
  }
}

@Global()
@Module({})
class MediumGivens {}

/**
 * A fresh database for one spec file (an embedded one in memory, or a PostgreSQL database of its
 * own in `medium:postgres`), migrated as the gateway migrates it at boot. Close it in afterAll.
 */
export async function newMediumContext(options: { clock?: Clock; env?: Record<string, string | undefined> } = {}): Promise<MediumContext> {
  const pg = testDatabase() === 'postgres' ? await createTestPostgresDatabase() : undefined;
  const { config } = loadConfig(testEnv({ ...options.env, ...(pg ? { DATABASE_URL: pg.url } : {}) }), { persistGenerated: false });
  const setup = await createDatabaseSetup(config);
  const ctx = new MediumContext(new DataSource({ ...setup.options, entities: ENTITIES }), config, options.clock ?? new SystemClock(), setup, async () => pg?.drop());
  try {
    await ctx.dataSource.initialize();
    await runMigrations(ctx.dataSource, setup.kind);
  } catch (error) {
    await ctx.close(); // a failed start leaves no PGlite open and no PostgreSQL database behind
    throw error;
  }
  return ctx;
}

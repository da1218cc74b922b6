/**
 * The gateway's configuration, validated once at boot (see src/config/load-config.ts). Injected by class:
 * `constructor(private readonly config: AppConfig)`. Secret fields are wrapped in `Secret` so a
 * stray log line or JSON.stringify never shows them.
 */
export class Secret<T = string> {
  readonly #value: T;
  constructor(value: T) {
    this.#value = value;
  }
  reveal(): T {
    return this.#value;
  }
  toString(): string {
    return '[secret]';
  }
  toJSON(): string {
    return '[secret]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[secret]';
  }
}

export type NodeEnv = 'production' | 'development' | 'test';

export class AppConfig {
  readonly nodeEnv: NodeEnv;
  readonly isProduction: boolean;
  readonly port: number;
  readonly host: string;
  /** `postgres://…` when running on PostgreSQL; undefined for the embedded database. */
  readonly databaseUrl?: Secret;
  /** DATABASE_POOL_SIZE: connections each process keeps to PostgreSQL (the embedded database has one). */
  readonly databasePoolSize: number;
  /** DATABASE_PREPARED_STATEMENTS: whether statements are prepared once per connection (src/database/prepared-statements.ts). */
  readonly databasePreparedStatements: boolean;
  readonly dataDir: string;
  readonly adminApiToken: Secret;
  readonly adminEmail: string;
  readonly adminPassword: Secret;
  /** 32-byte key for AES-256-GCM encryption of secrets at rest. */
  readonly secretsKey: Secret<Buffer>;
  readonly publicBaseUrl: string;
  /** DEFAULT_PROVIDER: the provider of merchants that name none and have no provider accounts, charged through its built-in account. */
  readonly defaultProvider: string;
  readonly webhookAllowPrivateUrls: boolean;
  /** ALLOW_HOMOLOGATION_ACCOUNTS: whether production may charge through provider accounts on a PSP's homologation host (`environment: sandbox`). */
  readonly allowHomologationAccounts: boolean;
  /** Largest payment amount, in centavos. */
  readonly maxAmountCents: number;
  readonly idempotencyTtlSeconds: number;
  /** How long an in-flight idempotency record is held before another request may take it over. */
  readonly idempotencyLockSeconds: number;
  readonly upstreamTimeoutMs: number;
  /** ROUTING_BREAKER_FAILURES: consecutive failures that open an account's circuit (docs/providers.md, Routing). */
  readonly routingBreakerFailures: number;
  /** ROUTING_BREAKER_HALF_OPEN_MS: how long an open circuit waits before one call may try the account again. */
  readonly routingBreakerHalfOpenMs: number;
  /** Requests per second allowed per merchant key (0 turns the limit off). */
  readonly rateLimitPerSecond: number;
  readonly logLevel: string;
  /** Seconds a Pix charge stays payable. */
  readonly pixExpirySeconds: number;
  /** Payments still pending this long are read back from their provider. */
  readonly reconcileAfterSeconds: number;
  /** How often background jobs (reconciliation, purges) run; 0 turns them off. */
  readonly jobIntervalMs: number;
  /** INVARIANT_CHECK_DAYS: how many days back the money invariant check reads payments (docs/operations.md, Money invariant check). */
  readonly invariantCheckDays: number;
  /** INVARIANT_CHECK_HOUR: the hour of the day (UTC) from which the daily money invariant check runs. */
  readonly invariantCheckHour: number;
  /** How often the delivery worker polls for due deliveries; 0 turns it off. */
  readonly deliveryPollMs: number;
  readonly deliveryTimeoutMs: number;
  /** Forwards one process has in flight at once. */
  readonly deliveryConcurrency: number;
  /** Waits between attempts (ms); the published schedule (DEFAULT_RETRY_SCHEDULE_MS) unless DELIVERY_RETRY_SCHEDULE_MS says otherwise. */
  readonly deliveryRetryScheduleMs: readonly number[];
  /** How long a claimed delivery stays with its process; after a crash it is retried once this lapses. */
  readonly deliveryLeaseMs: number;
  /** `redis://…`: rate limits, failed-auth throttling and login back-off shared by every process. */
  readonly redisUrl?: Secret;
  /**
   * Prefix of the throttling keys in Redis. Not read from the environment: tests set it so that runs
   * sharing one Redis keep their counts apart.
   */
  readonly throttleKeyPrefix?: string;
  /** Bearer token for `GET /metrics` (the admin token also works). */
  readonly metricsToken?: Secret;
  /**
   * Which proxies' `X-Forwarded-For` sets the client address (throttling, logs): `false` trusts
   * none, a number trusts that many hops, a list trusts those addresses and CIDR ranges.
   */
  readonly trustProxy: false | number | string[];
  /**
   * The environment this configuration was read from, for the modules that validate settings of
   * their own at boot (a provider's built-in configuration lives with its adapter, not here).
   * Secret as a whole: it holds every credential.
   */
  readonly environment: Secret<Readonly<Record<string, string | undefined>>>;
  /** On SIGTERM, how long requests and deliveries in flight may take to finish before the process closes anyway. */
  readonly shutdownTimeoutMs: number;
  /**
   * HEAP_GROWING_PERCENT: how far V8 lets the old generation grow past what a full collection kept
   * before the next (30: to 1.3 times); 0 leaves it to V8. Less memory for more collections.
   */
  readonly heapGrowingPercent: number;
  /** WORKERS: processes serving the gateway on this machine (src/cluster.ts); 1 is a single process with no cluster primary. */
  readonly workers: number;

  constructor(values: AppConfigValues) {
    Object.assign(this, values);
  }
}

export type AppConfigValues = { -readonly [K in keyof AppConfig]: AppConfig[K] };

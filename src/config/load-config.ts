import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule } from '../domain/retry-schedule';
import { AppConfig, AppConfigValues, NodeEnv, Secret } from './app-config';

type Env = Record<string, string | undefined>;

/** Secrets the gateway generates on first start when they are not given, kept in DATA_DIR. */
export interface LocalSecrets {
  adminApiToken?: string;
  adminEmail?: string;
  adminPassword?: string;
  secretsKey?: string;
}

export interface LoadedConfig {
  config: AppConfig;
  /** Names of the values generated on this start (to be printed once). */
  generated: (keyof LocalSecrets)[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export const LOCAL_SECRETS_FILE = 'local-secrets.json';

function parseIntStrict(env: Env, name: string, fallback: number, problems: string[], min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    problems.push(`${name} must be a whole number, got "${raw}".`);
    return fallback;
  }
  const value = Number(raw.trim());
  if (value < min || value > max) problems.push(`${name} must be between ${min} and ${max}, got ${value}.`);
  return value;
}

export function parseBool(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  problems.push(`${name} must be true or false, got "${env[name]}".`);
  return fallback;
}

function parseAmountToCents(env: Env, name: string, fallbackCents: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallbackCents;
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(raw.trim());
  if (!match) {
    problems.push(`${name} must be an amount in reais with at most 2 decimals, got "${raw}".`);
    return fallbackCents;
  }
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function retrySchedule(env: Env, problems: string[]): readonly number[] {
  const raw = env.DELIVERY_RETRY_SCHEDULE_MS;
  if (raw === undefined || raw.trim() === '') return DEFAULT_RETRY_SCHEDULE_MS;
  const parsed = parseRetrySchedule(raw);
  if ('problem' in parsed) {
    problems.push(parsed.problem);
    return DEFAULT_RETRY_SCHEDULE_MS;
  }
  return parsed.scheduleMs;
}

/** TRUST_PROXY: unset or false trusts no proxy; a hop count; or a comma-separated list of addresses and CIDR ranges. */
function parseTrustProxy(env: Env, problems: string[]): false | number | string[] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '' || raw.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 16) problems.push(`TRUST_PROXY as a hop count must be between 1 and 16, got ${hops}.`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !(entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry)));
  if (bad.length || !entries.length) {
    problems.push(`TRUST_PROXY must be a hop count or a comma-separated list of IP addresses and CIDR ranges, got "${raw}".`);
  }
  return entries;
}

/** Most processes WORKERS may ask for: well past any machine's cores, low enough that a typo cannot fork thousands. */
export const MAX_WORKERS = 256;

/**
 * WORKERS: how many processes serve the gateway (src/cluster.ts); a whole number, or `auto` for the
 * cores Node may use. More than one needs PostgreSQL: the embedded database belongs to one process.
 */
function parseWorkers(env: Env, databaseUrl: string | undefined, problems: string[], cores: () => number): number {
  const raw = env.WORKERS?.trim().toLowerCase();
  let workers: number;
  if (raw === 'auto') workers = Math.min(cores(), MAX_WORKERS);
  else {
    const before = problems.length;
    workers = parseIntStrict(env, 'WORKERS', 1, problems, 1, MAX_WORKERS);
    if (problems.length > before) {
      // One line that names both spellings, instead of parseIntStrict's whole-number line.
      problems.splice(before, problems.length - before, `WORKERS must be a whole number from 1 to ${MAX_WORKERS}, or auto, got "${env.WORKERS}".`);
      return 1;
    }
  }
  if (workers > 1 && !databaseUrl) {
    const asked = raw === 'auto' ? `auto (${workers} processes)` : String(workers);
    problems.push(`WORKERS=${asked} requires DATABASE_URL: the embedded database serves one process.`);
  }
  return workers;
}

function readLocalSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, LOCAL_SECRETS_FILE);
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
}

function writeLocalSecrets(dataDir: string, secrets: LocalSecrets): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, LOCAL_SECRETS_FILE), JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
}

/** The settings that are not secrets, read from the environment. */
type Settings = Omit<AppConfigValues, 'adminApiToken' | 'adminEmail' | 'adminPassword' | 'secretsKey'>;
/** The secrets, given or generated. */
type Secrets = Pick<AppConfigValues, 'adminApiToken' | 'adminEmail' | 'adminPassword' | 'secretsKey'>;

/**
 * Reads and validates the environment (every variable is in the README's Configuration table). Missing admin credentials and
 * SECRETS_KEY are generated into DATA_DIR on first start (never under NODE_ENV=production, which
 * refuses insecure settings with one line each). Throws ConfigError listing every problem.
 */
export function loadConfig(env: Env = process.env, options: { persistGenerated?: boolean; cores?: () => number } = {}): LoadedConfig {
  const problems: string[] = [];
  const settings = readSettings(env, problems, options.cores ?? availableParallelism);
  if (problems.length) throw new ConfigError(problems);
  // Generated secrets: only outside production, kept in DATA_DIR so they survive restarts.
  const persist = (options.persistGenerated ?? true) && settings.dataDir !== ':memory:';
  const { secrets, generated } = givenOrGeneratedSecrets(env, settings.dataDir, persist);
  return { config: new AppConfig({ ...settings, ...secrets }), generated };
}

/** Every setting but the secrets; each problem found is added to `problems`, in the order the settings are read. */
function readSettings(env: Env, problems: string[], cores: () => number): Settings {
  const nodeEnvRaw = (env.NODE_ENV ?? 'development').trim();
  const nodeEnv: NodeEnv = nodeEnvRaw === 'production' ? 'production' : nodeEnvRaw === 'test' ? 'test' : 'development';
  const isProduction = nodeEnv === 'production';
  const port = parseIntStrict(env, 'PORT', 3000, problems, 0, 65535);
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must start with postgres:// or postgresql://.');
  checkCredentials(env, isProduction, databaseUrl, problems);
  const publicBaseUrl = readPublicBaseUrl(env, port, isProduction, problems);
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://.');
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters.');
  // The documented default is the built-in simulated PSP (the README's Configuration table): a name like
  // PORT's 3000, which no code branches on; the providers module resolves it to that adapter's built-in account.
  const defaultProvider = env.DEFAULT_PROVIDER?.trim() || 'sandbox';
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(defaultProvider)) problems.push('DEFAULT_PROVIDER must be a provider name (lower-case letters, digits, - and _).');
  const { deliveryTimeoutMs, deliveryLeaseMs } = readDeliveryDeadlines(env, problems);

  return {
    nodeEnv,
    isProduction,
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    databaseUrl: databaseUrl ? new Secret(databaseUrl) : undefined,
    databasePoolSize: parseIntStrict(env, 'DATABASE_POOL_SIZE', 20, problems, 1, 1000),
    databasePreparedStatements: parseBool(env, 'DATABASE_PREPARED_STATEMENTS', true, problems),
    dataDir: readDataDir(env),
    publicBaseUrl,
    defaultProvider,
    webhookAllowPrivateUrls: parseBool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', !isProduction, problems),
    allowHomologationAccounts: parseBool(env, 'ALLOW_HOMOLOGATION_ACCOUNTS', false, problems),
    maxAmountCents: parseAmountToCents(env, 'MAX_PAYMENT_AMOUNT', 100_000_000, problems),
    idempotencyTtlSeconds: parseIntStrict(env, 'IDEMPOTENCY_TTL_HOURS', 24, problems, 1, 24 * 365) * 3600,
    idempotencyLockSeconds: parseIntStrict(env, 'IDEMPOTENCY_LOCK_SECONDS', 60, problems, 1, 3600),
    upstreamTimeoutMs: parseIntStrict(env, 'UPSTREAM_TIMEOUT_MS', 10_000, problems, 100, 120_000),
    routingBreakerFailures: parseIntStrict(env, 'ROUTING_BREAKER_FAILURES', 5, problems, 1, 1000),
    routingBreakerHalfOpenMs: parseIntStrict(env, 'ROUTING_BREAKER_HALF_OPEN_MS', 30_000, problems, 10, 3600 * 1000),
    rateLimitPerSecond: parseIntStrict(env, 'RATE_LIMIT_PER_SECOND', 100, problems, 0, 1_000_000),
    logLevel: env.LOG_LEVEL?.trim() || (nodeEnv === 'test' ? 'silent' : 'info'),
    pixExpirySeconds: parseIntStrict(env, 'PIX_EXPIRY_SECONDS', 3600, problems, 60, 30 * 24 * 3600),
    reconcileAfterSeconds: parseIntStrict(env, 'RECONCILE_AFTER_SECONDS', 300, problems, 1, 30 * 24 * 3600),
    jobIntervalMs: parseIntStrict(env, 'JOB_INTERVAL_MS', 30_000, problems, 0, 24 * 3600 * 1000),
    invariantCheckDays: parseIntStrict(env, 'INVARIANT_CHECK_DAYS', 7, problems, 1, 366),
    invariantCheckHour: parseIntStrict(env, 'INVARIANT_CHECK_HOUR', 6, problems, 0, 23),
    deliveryPollMs: parseIntStrict(env, 'DELIVERY_POLL_MS', 500, problems, 0, 3600 * 1000),
    deliveryTimeoutMs,
    deliveryConcurrency: parseIntStrict(env, 'DELIVERY_CONCURRENCY', 32, problems, 1, 256),
    deliveryRetryScheduleMs: retrySchedule(env, problems),
    deliveryLeaseMs,
    redisUrl: redisUrl ? new Secret(redisUrl) : undefined,
    metricsToken: metricsToken ? new Secret(metricsToken) : undefined,
    trustProxy: parseTrustProxy(env, problems),
    shutdownTimeoutMs: parseIntStrict(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, problems, 0, 600_000),
    heapGrowingPercent: parseIntStrict(env, 'HEAP_GROWING_PERCENT', 0, problems, 0, 1000),
    workers: parseWorkers(env, databaseUrl, problems, cores),
    environment: new Secret({ ...env }),
  };
}

/** DATA_DIR, resolved: ':memory:' keeps the embedded database in memory (tests); anything else is a directory. */
function readDataDir(env: Env): string {
  const raw = env.DATA_DIR?.trim() || './data';
  return raw === ':memory:' || isAbsolute(raw) ? raw : resolve(process.cwd(), raw);
}

/** What production requires to be given rather than generated, and the shape of the credentials given. */
function checkCredentials(env: Env, isProduction: boolean, databaseUrl: string | undefined, problems: string[]): void {
  if (isProduction) {
    if (!env.SECRETS_KEY) problems.push('NODE_ENV=production requires SECRETS_KEY (64 hex characters); generated keys are for development only.');
    if (!databaseUrl) problems.push('NODE_ENV=production requires DATABASE_URL: the embedded database does not fsync and is for development only.');
    if (!env.ADMIN_API_TOKEN) problems.push('NODE_ENV=production requires ADMIN_API_TOKEN; a generated admin token is for development only.');
    else if (env.ADMIN_API_TOKEN.length < 32) problems.push('ADMIN_API_TOKEN must be at least 32 characters in production (e.g. openssl rand -base64 32).');
    if (!env.ADMIN_EMAIL || !env.ADMIN_PASSWORD)
      problems.push('NODE_ENV=production requires ADMIN_EMAIL and ADMIN_PASSWORD; generated dashboard credentials are for development only.');
    else if (env.ADMIN_PASSWORD.length < 12) problems.push('ADMIN_PASSWORD must be at least 12 characters in production.');
  }
  // Production's own 32-character rule above already names a shorter token.
  if (!isProduction && env.ADMIN_API_TOKEN !== undefined && env.ADMIN_API_TOKEN.length < 16) problems.push('ADMIN_API_TOKEN must be at least 16 characters.');
  if (env.SECRETS_KEY !== undefined && !/^[0-9a-fA-F]{64}$/.test(env.SECRETS_KEY.trim())) problems.push('SECRETS_KEY must be 64 hex characters (32 bytes).');
}

function readPublicBaseUrl(env: Env, port: number, isProduction: boolean, problems: string[]): string {
  const publicBaseUrl = (env.PUBLIC_BASE_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\//.test(publicBaseUrl)) problems.push('PUBLIC_BASE_URL must be an http(s) URL.');
  else if (isProduction && !publicBaseUrl.startsWith('https://')) {
    problems.push(`PUBLIC_BASE_URL must be https:// in production (providers post payer data to it), got "${publicBaseUrl}".`);
  }
  return publicBaseUrl;
}

function readDeliveryDeadlines(env: Env, problems: string[]): { deliveryTimeoutMs: number; deliveryLeaseMs: number } {
  const deliveryTimeoutMs = parseIntStrict(env, 'DELIVERY_TIMEOUT_MS', 10_000, problems, 100, 60_000);
  // The lease must outlast an attempt (timeout, then recording it), or a slow attempt's delivery
  // could be claimed again by another process while it is still running.
  const deliveryLeaseMs = parseIntStrict(env, 'DELIVERY_LEASE_MS', deliveryTimeoutMs + 30_000, problems, 1_000, 3600 * 1000);
  if (deliveryLeaseMs < deliveryTimeoutMs + 1_000)
    problems.push(`DELIVERY_LEASE_MS must be at least DELIVERY_TIMEOUT_MS + 1000 (${deliveryTimeoutMs + 1_000}), got ${deliveryLeaseMs}.`);
  return { deliveryTimeoutMs, deliveryLeaseMs };
}

/** The admin credentials and SECRETS_KEY: as given, else as kept in DATA_DIR, else generated now (and kept when `persist`). */
function givenOrGeneratedSecrets(env: Env, dataDir: string, persist: boolean): { secrets: Secrets; generated: (keyof LocalSecrets)[] } {
  const stored = persist ? readLocalSecrets(dataDir) : {};
  const generated: (keyof LocalSecrets)[] = [];
  const pick = (name: keyof LocalSecrets, given: string | undefined, make: () => string): string => {
    if (given) return given;
    if (stored[name]) return stored[name];
    stored[name] = make();
    generated.push(name);
    return stored[name];
  };
  const adminApiToken = pick('adminApiToken', env.ADMIN_API_TOKEN, () => `adm_${randomBytes(24).toString('base64url')}`);
  const adminEmail = pick('adminEmail', env.ADMIN_EMAIL?.trim(), () => 'admin@localhost');
  const adminPassword = pick('adminPassword', env.ADMIN_PASSWORD, () => randomBytes(12).toString('base64url'));
  const secretsKeyHex = pick('secretsKey', env.SECRETS_KEY?.trim(), () => randomBytes(32).toString('hex'));
  if (generated.length && persist) writeLocalSecrets(dataDir, stored);
  const secrets: Secrets = {
    adminApiToken: new Secret(adminApiToken),
    adminEmail,
    adminPassword: new Secret(adminPassword),
    secretsKey: new Secret(Buffer.from(secretsKeyHex, 'hex')),
  };
  return { secrets, generated };
}

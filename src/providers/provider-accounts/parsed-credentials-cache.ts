import type { ProviderAccount } from './provider-account.entity';

/** What a parse read from the row: a row that differs in any of these is another version of the account. */
type ParseInputs = Pick<ProviderAccount, 'provider' | 'updatedAt' | 'credentialsEnc' | 'environment' | 'baseUrl' | 'tokenUrl' | 'pixKey'>;

interface Entry {
  provider: string;
  updatedAt: number;
  /** Sealed with a fresh IV on every write, so two writes in one millisecond still differ here. */
  credentialsEnc: string;
  environment: string;
  baseUrl: string | null;
  tokenUrl: string | null;
  pixKey: string | null;
  credentials: unknown;
  /** The clock's time when the parse succeeded: the certificate was valid from then on. */
  parsedAt: number;
  /** When the certificate stops being valid (epoch ms), null for credentials without one. */
  expiresAt: number | null;
}

/** How many accounts keep their parsed credentials; operators hold a handful, so this is only a bound. */
export const PARSED_CREDENTIALS_CAPACITY = 256;

/**
 * Each account's credentials as its adapter last parsed them, so that a payment, a callback or a
 * reconciliation read does not open and parse them again (a PKCS#12 bundle costs tens of ms).
 * An entry serves only the same version of the row (updated_at, the sealed credentials and the
 * settings the parse checked) and only while the clock is between the parse and the certificate's
 * expiry: outside that, the parse runs again and answers what it answers today (docs/providers.md).
 * Least recently used entries go first past `capacity`. Secrets stay in this process's memory,
 * as the parsed credentials of a call always did: nothing here prints or serialises them.
 */
export class ParsedCredentialsCache {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly capacity = PARSED_CREDENTIALS_CAPACITY) {}

  /** The parsed credentials of this version of the account, or undefined (and the stale entry dropped). */
  get(account: Pick<ProviderAccount, 'id'> & ParseInputs, now: Date): unknown {
    const entry = this.entries.get(account.id);
    if (!entry) return undefined;
    const at = now.getTime();
    const usable = sameVersion(entry, account) && at >= entry.parsedAt && (entry.expiresAt === null || at < entry.expiresAt);
    this.entries.delete(account.id);
    if (!usable) return undefined;
    this.entries.set(account.id, entry); // most recently used last
    return entry.credentials;
  }

  /**
   * Keeps `credentials` parsed from this version of the account at `now`. `certificateExpiresAt`
   * is the adapter's summary of them (ISO 8601); without one they never expire here, and one that
   * is not a date keeps nothing.
   */
  set(account: Pick<ProviderAccount, 'id'> & ParseInputs, credentials: unknown, now: Date, certificateExpiresAt: string | undefined): void {
    const expiresAt = certificateExpiresAt === undefined ? null : Date.parse(certificateExpiresAt);
    this.entries.delete(account.id);
    if (Number.isNaN(expiresAt)) return;
    const { provider, credentialsEnc, environment, baseUrl, tokenUrl, pixKey } = account;
    this.entries.set(account.id, {
      provider,
      updatedAt: account.updatedAt.getTime(),
      credentialsEnc,
      environment,
      baseUrl,
      tokenUrl,
      pixKey,
      credentials,
      parsedAt: now.getTime(),
      expiresAt,
    });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Drops what is kept for an account (deleted: its secrets must not outlive it in memory either). */
  delete(accountId: string): void {
    this.entries.delete(accountId);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Never the credentials, whoever logs or serialises the service holding this. */
  toJSON(): { size: number; capacity: number } {
    return { size: this.size, capacity: this.capacity };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ParsedCredentialsCache(${this.size}/${this.capacity})`;
  }
}

function sameVersion(entry: Entry, row: ParseInputs): boolean {
  return (
    entry.updatedAt === row.updatedAt.getTime() &&
    entry.provider === row.provider &&
    entry.environment === row.environment &&
    entry.baseUrl === row.baseUrl &&
    entry.tokenUrl === row.tokenUrl &&
    entry.pixKey === row.pixKey &&
    entry.credentialsEnc === row.credentialsEnc
  );
}

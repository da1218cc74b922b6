import { createHash } from 'node:crypto';

/** An OAuth2 access token as the token endpoint granted it. */
export interface AccessToken {
  value: string;
  /** When it was granted (by the clock of the cache's caller). */
  issuedAt: Date;
  /** When the PSP stops accepting it. */
  expiresAt: Date;
}

interface Entry {
  token?: AccessToken;
  /** The fetch in progress: every caller of a burst waits on this one. */
  pending?: Promise<AccessToken>;
  /** The PSP refused the token request: the same failure until `until` (ms), without asking again. */
  refused?: { error: unknown; until: number };
}

export interface TokenCacheOptions {
  now?: () => Date;
  /** Whether a failed fetch is the PSP refusing these credentials (a 4xx), to be remembered. */
  isRefusal?: (error: unknown) => boolean;
  /** How long a refusal is remembered (default 30 s). */
  refusalMs?: number;
}

/** The longest a token is given up before its expiry, and the share of its lifetime that may be. */
const MAX_EARLY_MS = 60_000;
const EARLY_SHARE = 0.1;

/**
 * The key of a token: the account's id, then a digest of everything that defines the token (API
 * base, token URL, client id and secret, the certificate's fingerprint…). The secret is never kept
 * in clear in the map, and any change to what the token stands for is another key.
 */
export function tokenKey(accountId: string, parts: readonly (string | null)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part === null ? '-' : `${part.length}:${part}`).update('|');
  return `${accountId}|${hash.digest('base64url')}`;
}

/**
 * OAuth2 client-credentials tokens, one per key, kept until shortly before they expire: a minute
 * early, or a tenth of the lifetime for short ones (Itaú's last five minutes), so a call never
 * leaves with a token that dies on the way. A burst of calls needing a token fetches it once
 * (single flight); a 401 drops the token that was refused, and only that one, so a burst of 401s
 * refreshes once too. A refused token request is remembered for a while: callbacks anyone can send
 * must not turn into a token request each.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => Date;
  private readonly isRefusal: (error: unknown) => boolean;
  private readonly refusalMs: number;

  constructor(options: TokenCacheOptions | (() => Date) = {}) {
    const o = typeof options === 'function' ? { now: options } : options;
    this.now = o.now ?? (() => new Date());
    this.isRefusal = o.isRefusal ?? (() => false);
    this.refusalMs = o.refusalMs ?? 30_000;
  }

  /** A live token for `key`, from the cache or from `fetch` (called once for concurrent callers). */
  async get(key: string, fetch: () => Promise<AccessToken>): Promise<AccessToken> {
    const entry = this.entry(key);
    if (entry.token && this.usable(entry.token)) return entry.token;
    if (entry.refused && this.now().getTime() < entry.refused.until) throw entry.refused.error;
    entry.pending ??= this.settle(entry, fetch());
    return entry.pending;
  }

  /**
   * A token `fetch` obtains now, whatever is cached or was refused (a health check proves the
   * credentials as they are); it then replaces the cached one, or its refusal is remembered.
   */
  async fresh(key: string, fetch: () => Promise<AccessToken>): Promise<AccessToken> {
    return this.settle(this.entry(key), fetch());
  }

  /** Forgets `token` after the PSP refused it (401), unless a newer one has already replaced it. */
  invalidate(key: string, token: AccessToken): void {
    const entry = this.entries.get(key);
    if (entry?.token?.value === token.value) entry.token = undefined;
  }

  /** Forgets every token of keys starting with `prefix` (an account whose credentials changed). */
  forget(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = {}));
    return entry;
  }

  private settle(entry: Entry, fetching: Promise<AccessToken>): Promise<AccessToken> {
    return fetching.then(
      (token) => {
        entry.pending = undefined;
        entry.refused = undefined;
        entry.token = token;
        return token;
      },
      (error: unknown) => {
        entry.pending = undefined;
        // Any other failure (no answer, a 5xx) is not kept: the next call tries again.
        if (this.isRefusal(error)) entry.refused = { error, until: this.now().getTime() + this.refusalMs };
        throw error;
      },
    );
  }

  private usable(token: AccessToken): boolean {
    return this.now().getTime() < token.expiresAt.getTime() - earlyBy(token);
  }
}

/** How long before its expiry a token stops being handed out. */
export function earlyBy(token: AccessToken): number {
  const lifetime = Math.max(0, token.expiresAt.getTime() - token.issuedAt.getTime());
  return Math.min(MAX_EARLY_MS, lifetime * EARLY_SHARE);
}

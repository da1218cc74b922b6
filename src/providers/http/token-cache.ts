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
}

/** The longest a token is given up before its expiry, and the share of its lifetime that may be. */
const MAX_EARLY_MS = 60_000;
const EARLY_SHARE = 0.1;

/**
 * OAuth2 client-credentials tokens, one per key (the account, its credentials' version and the
 * token endpoint), kept until shortly before they expire: a minute early, or a tenth of the
 * lifetime for short ones (Itaú's last five minutes), so a call never leaves with a token that
 * dies on the way. A burst of calls needing a token fetches it once (single flight); a 401 drops
 * the token that was refused, and only that one, so a burst of 401s refreshes once too.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** A live token for `key`, from the cache or from `fetch` (called once for concurrent callers). */
  async get(key: string, fetch: () => Promise<AccessToken>): Promise<AccessToken> {
    const entry = this.entries.get(key) ?? {};
    this.entries.set(key, entry);
    if (entry.token && this.usable(entry.token)) return entry.token;
    entry.pending ??= fetch().then(
      (token) => {
        entry.pending = undefined;
        entry.token = token;
        return token;
      },
      (error: unknown) => {
        // A failed fetch is not cached: the next call tries again.
        entry.pending = undefined;
        throw error;
      },
    );
    return entry.pending;
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

  private usable(token: AccessToken): boolean {
    return this.now().getTime() < token.expiresAt.getTime() - earlyBy(token);
  }
}

/** How long before its expiry a token stops being handed out. */
export function earlyBy(token: AccessToken): number {
  const lifetime = Math.max(0, token.expiresAt.getTime() - token.issuedAt.getTime());
  return Math.min(MAX_EARLY_MS, lifetime * EARLY_SHARE);
}

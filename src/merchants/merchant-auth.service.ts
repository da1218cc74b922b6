import { Injectable, Logger } from '@nestjs/common';
import type { AuthenticatedMerchant, MerchantKeyResolver } from '../auth/merchant-key-resolver';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { ChangeFeed, LiveCache } from '../database/change-feed';
import { Clock } from '../domain/clock';
import { safeEqual } from '../common/crypto/hash';
import { hashApiKey, looksLikeApiKey } from './api-key-material';
import { type ActiveKeyMatch, ApiKeyRepository } from './api-key.repository';

/** How often at most a key's last use is written (ApiKeyRepository.recordUse holds the same minute). */
const LAST_USE_WRITE_MS = 60_000;

/**
 * Resolves an X-Merchant-Key to its merchant. The lookup's answer is kept in memory while the
 * ChangeFeed is live, so most requests cost no query; a revoked key, a deactivated merchant or any
 * other change to keys or merchants empties the cache at its commit, in every process
 * (docs/architecture.md, Lookup caches). It is the key guard's MERCHANT_KEY_RESOLVER.
 *
 * It also records the key's last use, at most once a minute per key. That write is awaited, and a
 * failure is logged as a warning and does not refuse the request: a valid key must not stop charging
 * because its bookkeeping could not be written, and an error is never dropped unseen (as a
 * fire-and-forget promise could).
 */
@Injectable()
export class MerchantAuthService implements MerchantKeyResolver {
  private readonly logger = new Logger('MerchantAuth');
  /** Active keys by the hex of their hash; unknown keys are not kept (a new key works at once, and guesses fill nothing). */
  private readonly cache: LiveCache<string, ActiveKeyMatch | null>;
  /** When each key's last use was last written or read, by this process. */
  private readonly lastUse = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyRepository,
    changes: ChangeFeed,
    private readonly clock: Clock,
  ) {
    this.cache = new LiveCache(changes, ['api_keys', 'merchants'], { ttlMs: 60_000, maxEntries: 10_000, keep: (match) => match !== null });
  }

  async authenticate(presented: string | undefined): Promise<AuthenticatedMerchant> {
    if (presented === undefined || presented.trim() === '') throw new AppError(ErrorCode.MISSING_MERCHANT_KEY);
    if (!looksLikeApiKey(presented)) throw new AppError(ErrorCode.INVALID_MERCHANT_KEY);
    const hash = hashApiKey(presented);
    let loaded = false;
    const match = await this.cache.get(hash.toString('hex'), () => {
      loaded = true;
      return this.keys.findActiveByKeyHash(hash);
    });
    // Found by its hash through an index or a map; compared again in constant time, as every key comparison is.
    if (!match || !safeEqual(hash, match.apiKey.keyHash)) throw new AppError(ErrorCode.INVALID_MERCHANT_KEY);
    await this.noteUse(match, loaded);
    return { id: match.merchant.id, name: match.merchant.name, provider: match.merchant.provider, apiKeyId: match.apiKey.id };
  }

  /** Writes the key's last use when a minute has passed since the last write this process knows of. */
  private async noteUse(match: ActiveKeyMatch, fromDatabase: boolean): Promise<void> {
    const keyId = match.apiKey.id;
    const now = this.clock.now().getTime();
    if (fromDatabase && !match.useDue) {
      this.lastUse.set(keyId, match.lastUsedAt?.getTime() ?? now);
      return;
    }
    const last = fromDatabase ? undefined : this.lastUse.get(keyId);
    if (last !== undefined && now - last < LAST_USE_WRITE_MS) return;
    this.lastUse.set(keyId, now);
    if (this.lastUse.size > 10_000) this.lastUse.clear();
    try {
      await this.keys.recordUse(keyId);
    } catch (error) {
      this.logger.warn({ api_key_id: keyId, err: error }, `API key ${keyId}: its last use could not be recorded`);
    }
  }
}

import { Injectable, Logger } from '@nestjs/common';
import type { AuthenticatedMerchant, MerchantKeyResolver } from '../auth/merchant-key-resolver';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { apiKeyMatches, hashApiKey, looksLikeApiKey } from './api-key-material';
import { ApiKeyRepository } from './api-key.repository';

/**
 * Resolves an X-Merchant-Key to its merchant with one indexed query, every request: no cache, so a
 * revoked key or a deactivated merchant stops working at once, in every process. It is the key guard's
 * MERCHANT_KEY_RESOLVER.
 *
 * It also records the key's last use, at most once a minute per key (the lookup says when one is
 * due, so other requests cost no write). That write is awaited, and a failure is logged as a warning
 * and does not refuse the request: a valid key must not stop charging because its bookkeeping could
 * not be written, and an error is never dropped unseen (as a fire-and-forget promise could).
 */
@Injectable()
export class MerchantAuthService implements MerchantKeyResolver {
  private readonly logger = new Logger('MerchantAuth');

  constructor(private readonly keys: ApiKeyRepository) {}

  async authenticate(presented: string | undefined): Promise<AuthenticatedMerchant> {
    if (presented === undefined || presented.trim() === '') throw new AppError(ErrorCode.MISSING_MERCHANT_KEY);
    if (!looksLikeApiKey(presented)) throw new AppError(ErrorCode.INVALID_MERCHANT_KEY);
    const match = await this.keys.findActiveByKeyHash(hashApiKey(presented));
    if (!match || !apiKeyMatches(presented, match.apiKey.keyHash)) throw new AppError(ErrorCode.INVALID_MERCHANT_KEY);
    if (match.useDue) await this.recordUse(match.apiKey.id);
    return { id: match.merchant.id, name: match.merchant.name, provider: match.merchant.provider, apiKeyId: match.apiKey.id };
  }

  private async recordUse(keyId: string): Promise<void> {
    try {
      await this.keys.recordUse(keyId);
    } catch (error) {
      this.logger.warn({ api_key_id: keyId, err: error }, `API key ${keyId}: its last use could not be recorded`);
    }
  }
}

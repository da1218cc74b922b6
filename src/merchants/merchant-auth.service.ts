import { Injectable } from '@nestjs/common';
import type { AuthenticatedMerchant, MerchantKeyResolver } from '../auth/merchant-key-resolver';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { apiKeyMatches, hashApiKey, looksLikeApiKey } from './api-key-material';
import { ApiKeyRepository } from './api-key.repository';

/**
 * Resolves an X-Merchant-Key to its merchant with one indexed query, every request: no cache, so a
 * revoked key or a deactivated merchant stops working at once, in every process. It is the key guard's
 * MERCHANT_KEY_RESOLVER.
 */
@Injectable()
export class MerchantAuthService implements MerchantKeyResolver {
  constructor(private readonly keys: ApiKeyRepository) {}

  async authenticate(presented: string | undefined): Promise<AuthenticatedMerchant> {
    if (presented === undefined || presented.trim() === '') throw new AppError(ErrorCode.MISSING_MERCHANT_KEY);
    if (!looksLikeApiKey(presented)) throw new AppError(ErrorCode.INVALID_MERCHANT_KEY);
    const match = await this.keys.findActiveByKeyHash(hashApiKey(presented));
    if (!match || !apiKeyMatches(presented, match.apiKey.keyHash)) throw new AppError(ErrorCode.INVALID_MERCHANT_KEY);
    return { id: match.merchant.id, name: match.merchant.name, provider: match.merchant.provider, apiKeyId: match.apiKey.id };
  }
}

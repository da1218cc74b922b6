import { Injectable } from '@nestjs/common';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { ApiKeyRepository } from './api-key.repository';
import type { CurrentApiKeyView } from './merchant.view';

/** What a merchant may read about its own API keys (docs/api.md, "The key in use"). */
@Injectable()
export class MerchantApiKeysService {
  constructor(private readonly keys: ApiKeyRepository) {}

  /**
   * The key this request authenticated with. The guard has just recorded its use (if a minute had
   * passed), so `last_used_at` is set; the fallback to now only covers a write that failed and was logged.
   */
  async current(merchant: AuthenticatedMerchant): Promise<CurrentApiKeyView> {
    const key = await this.keys.findForMerchant(merchant.id, merchant.apiKeyId);
    // The guard found this key active a moment ago; gone since means revoked and deleted meanwhile.
    if (!key) throw new Error(`API key ${merchant.apiKeyId} vanished while its request ran`);
    return { id: key.id, prefix: key.prefix, created_at: key.createdAt.toISOString(), last_used_at: (key.lastUsedAt ?? new Date()).toISOString() };
  }
}

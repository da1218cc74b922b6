import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { apiKeyMatches, hashApiKey, looksLikeApiKey } from './api-key-material';

/** What a merchant request knows about its caller. */
export interface AuthenticatedMerchant {
  id: string;
  name: string;
  provider: string | null;
  apiKeyId: string;
}

/**
 * Resolves an X-Merchant-Key to its merchant with one indexed query, every request: no cache, so a
 * revoked key or a deactivated merchant stops working at once, in every process.
 */
@Injectable()
export class MerchantAuthService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async authenticate(presented: string | undefined): Promise<AuthenticatedMerchant> {
    if (presented === undefined || presented.trim() === '') throw new AppError(ErrorCode.MISSING_MERCHANT_KEY);
    if (!looksLikeApiKey(presented)) throw new AppError(ErrorCode.INVALID_MERCHANT_KEY);
    const rows: { key_id: string; key_hash: Buffer; id: string; name: string; provider: string | null }[] = await this.dataSource.query(
      `SELECT k.id AS key_id, k.key_hash, m.id, m.name, m.provider
         FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND m.active`,
      [hashApiKey(presented)],
    );
    const row = rows[0];
    if (!row || !apiKeyMatches(presented, row.key_hash)) throw new AppError(ErrorCode.INVALID_MERCHANT_KEY);
    return { id: row.id, name: row.name, provider: row.provider, apiKeyId: row.key_id };
  }
}

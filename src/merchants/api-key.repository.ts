import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hydrate, sqlEntities, sqlRows } from '../database/sql';
import { ApiKey } from './api-key.entity';
import { Merchant } from './merchant.entity';

/** A key as the admin API lists it: never its hash. */
export type ApiKeySummary = Pick<ApiKey, 'id' | 'prefix' | 'createdAt' | 'revokedAt'>;

/** An active key found by its hash, with the (active) merchant it authenticates. */
export interface ActiveKeyMatch {
  apiKey: Pick<ApiKey, 'id' | 'keyHash'>;
  merchant: Pick<Merchant, 'id' | 'name' | 'provider'>;
}

const SUMMARY_COLUMNS = 'id, prefix, created_at, revoked_at';

/** Every query of the `api_keys` table. */
@Injectable()
export class ApiKeyRepository {
  constructor(@InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>) {}

  /**
   * The key with this hash if it is not revoked and its merchant is active: one query on the
   * key_hash index, run on every merchant request (no cache), so a revocation or a deactivation
   * takes effect at once in every process.
   */
  async findActiveByKeyHash(keyHash: Buffer): Promise<ActiveKeyMatch | null> {
    const [row] = await sqlRows<Record<string, unknown>>(
      this.keys.manager,
      `SELECT k.id, k.key_hash, m.id AS m_id, m.name AS m_name, m.provider AS m_provider
         FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND m.active`,
      [keyHash],
    );
    if (!row) return null;
    return { apiKey: hydrate(this.keys.manager, ApiKey, row), merchant: hydrate(this.keys.manager, Merchant, row, 'm_') };
  }

  /**
   * Inserts the key only if its merchant exists, in one statement (no key is ever written for a
   * merchant that does not exist, even one deleted meanwhile). Null when there is no such merchant.
   */
  async insertIfMerchantExists(key: Pick<ApiKey, 'id' | 'merchantId' | 'keyHash' | 'prefix'>): Promise<ApiKeySummary | null> {
    const [inserted] = await sqlEntities(
      this.keys.manager,
      ApiKey,
      `INSERT INTO api_keys (id, merchant_id, key_hash, prefix)
       SELECT $1, id, $3, $4 FROM merchants WHERE id = $2
       RETURNING ${SUMMARY_COLUMNS}`,
      [key.id, key.merchantId, key.keyHash, key.prefix],
    );
    return inserted ?? null;
  }

  /**
   * Every key of the merchant, newest first, revoked ones included; null when there is no such
   * merchant (one query tells an unknown merchant from one without keys).
   */
  async listForMerchant(merchantId: string): Promise<ApiKeySummary[] | null> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.keys.manager,
      `SELECT k.id, k.prefix, k.created_at, k.revoked_at
         FROM merchants m LEFT JOIN api_keys k ON k.merchant_id = m.id
        WHERE m.id = $1
        ORDER BY k.created_at DESC, k.id DESC`,
      [merchantId],
    );
    if (rows.length === 0) return null;
    return rows.filter((row) => row.id !== null).map((row) => hydrate(this.keys.manager, ApiKey, row));
  }

  /**
   * Revokes the merchant's key if it is still active, in one conditional UPDATE: of two concurrent
   * revocations exactly one succeeds. Null when the key is unknown, another merchant's or already revoked.
   */
  async revokeActive(merchantId: string, keyId: string): Promise<ApiKeySummary | null> {
    const [revoked] = await sqlEntities(
      this.keys.manager,
      ApiKey,
      `UPDATE api_keys SET revoked_at = now()
        WHERE id = $1 AND merchant_id = $2 AND revoked_at IS NULL
        RETURNING ${SUMMARY_COLUMNS}`,
      [keyId, merchantId],
    );
    return revoked ?? null;
  }
}

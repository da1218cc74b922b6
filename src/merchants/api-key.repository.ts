import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ChangeFeed } from '../database/change-feed';
import { hydrate, sqlEntities, sqlRows } from '../database/sql';
import { ApiKey } from './api-key.entity';
import { Merchant } from './merchant.entity';

/** A key as the admin API lists it: never its hash. */
export type ApiKeySummary = Pick<ApiKey, 'id' | 'prefix' | 'createdAt' | 'lastUsedAt' | 'revokedAt'>;

/** An active key found by its hash, with the (active) merchant it authenticates. */
export interface ActiveKeyMatch {
  apiKey: Pick<ApiKey, 'id' | 'keyHash'>;
  merchant: Pick<Merchant, 'id' | 'name' | 'provider'>;
  /** Whether the key's `last_used_at` is unset or over a minute old by the database's clock: recordUse is then due. */
  useDue: boolean;
  /** The key's `last_used_at`, for deciding when the next use is due without asking again. */
  lastUsedAt: Date | null;
}

/** How often at most a key's last use is written: the time a merchant reads is this much behind at worst. */
export const LAST_USE_RESOLUTION = "interval '1 minute'";

const SUMMARY_COLUMNS = 'id, prefix, created_at, last_used_at, revoked_at';

/** Every query of the `api_keys` table. */
@Injectable()
export class ApiKeyRepository {
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly changes: ChangeFeed,
  ) {}

  /**
   * The key with this hash if it is not revoked and its merchant is active: one query on the
   * key_hash index (MerchantAuthService keeps its answers while the ChangeFeed is live). It also
   * says whether the key's last use is due to be written, so that most requests cost no second query.
   */
  async findActiveByKeyHash(keyHash: Buffer): Promise<ActiveKeyMatch | null> {
    const [row] = await sqlRows<Record<string, unknown>>(
      this.keys.manager,
      `SELECT k.id, k.key_hash, k.last_used_at, m.id AS m_id, m.name AS m_name, m.provider AS m_provider,
              (k.last_used_at IS NULL OR k.last_used_at < now() - ${LAST_USE_RESOLUTION}) AS use_due
         FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND m.active`,
      [keyHash],
    );
    if (!row) return null;
    return {
      apiKey: hydrate(this.keys.manager, ApiKey, row),
      merchant: hydrate(this.keys.manager, Merchant, row, 'm_'),
      useDue: row.use_due === true,
      lastUsedAt: (row.last_used_at as Date | null) ?? null,
    };
  }

  /**
   * Records that the key authenticated a request now, unless that was already recorded within the
   * last minute: the condition sits in the UPDATE, so several processes (or concurrent requests) that
   * all saw the use as due write it once. True when this call wrote it.
   */
  async recordUse(keyId: string): Promise<boolean> {
    const rows = await sqlRows(
      this.keys.manager,
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - ${LAST_USE_RESOLUTION})
        RETURNING id`,
      [keyId],
    );
    return rows.length === 1;
  }

  /** One key of the merchant, revoked or not; null when there is none with this id. */
  async findForMerchant(merchantId: string, keyId: string): Promise<ApiKeySummary | null> {
    const [key] = await sqlEntities(this.keys.manager, ApiKey, `SELECT ${SUMMARY_COLUMNS} FROM api_keys WHERE id = $1 AND merchant_id = $2`, [keyId, merchantId]);
    return key ?? null;
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
      `SELECT k.id, k.prefix, k.created_at, k.last_used_at, k.revoked_at
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
    // This process's key cache forgets at once; the others when the commit's notification reaches them.
    this.changes.changed('api_keys');
    return revoked ?? null;
  }
}

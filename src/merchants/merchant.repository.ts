import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { afterCursorSql, CursorPosition, microsecondsSql } from '../common/http/cursor';
import { ChangeFeed } from '../database/change-feed';
import { hydrate, sqlRows } from '../database/sql';
import { Merchant } from './merchant.entity';

/**
 * A merchant as the admin API shows it: every column but the sealed signing secret, which is never
 * read back, only whether one is set.
 */
export interface MerchantSummary {
  merchant: Pick<Merchant, 'id' | 'name' | 'displayName' | 'brandColor' | 'active' | 'webhookUrl' | 'provider' | 'refundAfterClose' | 'createdAt' | 'updatedAt'>;
  hasSigningSecret: boolean;
}

/** A summary in a page of the list, with its exact position (the cursor's, see common/http/cursor.ts). */
export type ListedMerchant = MerchantSummary & { id: string; created_us: string };

/** The fields an admin sets; the secret arrives sealed (SecretBox). */
export type MerchantSettable = Pick<Merchant, 'name' | 'displayName' | 'brandColor' | 'active' | 'webhookUrl' | 'webhookSigningSecretEnc' | 'provider' | 'refundAfterClose'>;

export interface MerchantListFilter {
  /** Part of the name (case-insensitive, taken literally), or the exact id. */
  search?: string;
  after?: CursorPosition;
  limit: number;
}

/** `created_us` keeps the full timestamp precision a JS Date would drop (the list's cursor). */
const SUMMARY_COLUMNS = `id, name, display_name, brand_color, active, webhook_url, webhook_signing_secret_enc IS NOT NULL AS has_secret, provider, refund_after_close, created_at, updated_at,
  ${microsecondsSql('created_at')} AS created_us`;

/** `%`, `_` and `\` in a search term are literal characters, not LIKE wildcards. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Every query of the `merchants` table. */
@Injectable()
export class MerchantRepository {
  constructor(
    @InjectRepository(Merchant) private readonly merchants: Repository<Merchant>,
    private readonly changes: ChangeFeed,
  ) {}

  /** Inserts a merchant; created_at and updated_at are the database's. */
  async insert(
    merchant: Pick<Merchant, 'id'> &
      Omit<MerchantSettable, 'refundAfterClose' | 'displayName' | 'brandColor'> &
      Partial<Pick<MerchantSettable, 'refundAfterClose' | 'displayName' | 'brandColor'>>,
  ): Promise<MerchantSummary> {
    const [row] = await sqlRows<Record<string, unknown>>(
      this.merchants.manager,
      `INSERT INTO merchants (id, name, active, webhook_url, webhook_signing_secret_enc, provider, refund_after_close, display_name, brand_color)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${SUMMARY_COLUMNS}`,
      [
        merchant.id,
        merchant.name,
        merchant.active,
        merchant.webhookUrl,
        merchant.webhookSigningSecretEnc,
        merchant.provider,
        merchant.refundAfterClose ?? false,
        merchant.displayName ?? null,
        merchant.brandColor ?? null,
      ],
    );
    return this.summary(row!);
  }

  async findSummary(id: string): Promise<MerchantSummary | null> {
    const [row] = await sqlRows<Record<string, unknown>>(this.merchants.manager, `SELECT ${SUMMARY_COLUMNS} FROM merchants WHERE id = $1`, [id]);
    return row ? this.summary(row) : null;
  }

  /** Merchants newest first: `limit + 1` rows from the cursor on, each with its exact position. */
  async listPage(filter: MerchantListFilter): Promise<ListedMerchant[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (filter.search !== undefined) {
      params.push(likePattern(filter.search), filter.search);
      where.push(`(name ILIKE $${params.length - 1} ESCAPE '\\' OR id = $${params.length})`);
    }
    if (filter.after !== undefined) {
      params.push(filter.after.createdUs, filter.after.id);
      where.push(afterCursorSql('created_at', 'id', `$${params.length - 1}`, `$${params.length}`));
    }
    params.push(filter.limit + 1);
    const rows = await sqlRows<Record<string, unknown>>(
      this.merchants.manager,
      `SELECT ${SUMMARY_COLUMNS} FROM merchants ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({ ...this.summary(row), id: row.id as string, created_us: row.created_us as string }));
  }

  /**
   * Changes the given fields (at least one) and sets updated_at to the database's now(), in one
   * statement. Null when there is no such merchant.
   */
  async update(id: string, changes: Partial<MerchantSettable>): Promise<MerchantSummary | null> {
    const properties = Object.keys(changes) as (keyof MerchantSettable)[];
    const columns = properties.map((property) => this.merchants.metadata.findColumnWithPropertyName(property)!.databaseName);
    const [row] = await sqlRows<Record<string, unknown>>(
      this.merchants.manager,
      `UPDATE merchants SET ${columns.map((column, i) => `${column} = $${i + 2}`).join(', ')}, updated_at = now()
        WHERE id = $1 RETURNING ${SUMMARY_COLUMNS}`,
      [id, ...properties.map((property) => changes[property])],
    );
    this.changes.changed('merchants');
    return row ? this.summary(row) : null;
  }

  private summary(row: Record<string, unknown>): MerchantSummary {
    return { merchant: hydrate(this.merchants.manager, Merchant, row), hasSigningSecret: row.has_secret as boolean };
  }
}

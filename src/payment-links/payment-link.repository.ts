import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { afterCursorSql, type CursorPosition, microsecondsSql } from '../common/http/cursor';
import { type Executor, hydrate, sqlRows } from '../database/sql';
import { PaymentLink } from './payment-link.entity';
import type { PaymentLinkCounts } from './payment-link-rules';

/** A link with what its state and counts are read from. */
export interface CountedLink {
  link: PaymentLink;
  counts: PaymentLinkCounts;
  merchantActive: boolean;
}

/** A link in a list, with its exact position for the cursor. */
export interface ListedLink extends CountedLink {
  id: string;
  created_us: string;
}

/** A link as its public page and the payer's open need it: with its merchant as a payment create takes it. */
export interface LinkWithMerchant {
  link: PaymentLink;
  merchant: { id: string; name: string; provider: string | null; active: boolean; displayName: string };
}

export interface LinkListFilter {
  merchantId?: string;
  active?: boolean;
  after?: CursorPosition;
  limit: number;
}

/**
 * A link's counts, always from its payments (`payments_payment_link` index) and its opens still
 * being made (`$holdSince`: opens created after it that are neither failed nor written as a payment).
 */
const COUNTS = (holdSince: string) => `
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS c_payments,
           count(*) FILTER (WHERE p.paid_at IS NOT NULL)::int AS c_paid,
           count(*) FILTER (WHERE p.status = 'pending')::int AS c_pending
      FROM payments p WHERE p.merchant_id = l.merchant_id AND p.payment_link_id = l.id) c ON true
  LEFT JOIN LATERAL (
    SELECT count(*)::int AS c_opening
      FROM payment_link_opens o
     WHERE o.link_id = l.id AND o.failed_at IS NULL AND o.created_at > ${holdSince}
       AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.merchant_id = o.merchant_id AND p.external_id = o.external_id AND p.payment_link_id = o.link_id)) f ON true
  JOIN merchants m ON m.id = l.merchant_id`;

const COUNT_COLUMNS = 'c.c_payments, c.c_paid, c.c_pending, f.c_opening, m.active AS m_active';

/** Every query of the `payment_links` table (its opens' own are in PaymentLinkOpenRepository). */
@Injectable()
export class PaymentLinkRepository {
  constructor(@InjectRepository(PaymentLink) private readonly links: Repository<PaymentLink>) {}

  /** Stores a new link unless one of its id exists (a retry of the create that made it). False when it existed. */
  async insertUnlessExists(link: PaymentLink): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(
      this.links.manager,
      `INSERT INTO payment_links (id, merchant_id, slug, title, description, amount_cents, min_amount_cents, max_amount_cents, expires_at, max_payments,
                                  collect_email, return_url, active, deactivated_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, true, NULL, $13, $13)
       ON CONFLICT (id) DO NOTHING
       RETURNING id`,
      [
        link.id,
        link.merchantId,
        link.slug,
        link.title,
        link.description,
        link.amountCents,
        link.minAmountCents,
        link.maxAmountCents,
        link.expiresAt,
        link.maxPayments,
        link.collectEmail,
        link.returnUrl,
        link.createdAt,
      ],
    );
    return rows.length > 0;
  }

  /** One link with its counts: a merchant's own (every read on behalf of a merchant is scoped by its id), or any (the operator's). */
  async findCounted(id: string, merchantId: string | undefined, holdSince: Date): Promise<CountedLink | null> {
    const params: unknown[] = [id, holdSince];
    const rows = await sqlRows<Record<string, unknown>>(
      this.links.manager,
      `SELECT l.*, ${COUNT_COLUMNS}
         FROM payment_links l ${COUNTS('$2')}
        WHERE l.id = $1 ${merchantId === undefined ? '' : `AND l.merchant_id = $${params.push(merchantId)}`}`,
      params,
    );
    return rows[0] ? this.counted(this.links.manager, rows[0]) : null;
  }

  /** Links newest first (a merchant's, or every merchant's), `limit + 1` rows from the cursor on, each with its counts. */
  async listPage(filter: LinkListFilter, holdSince: Date): Promise<ListedLink[]> {
    const params: unknown[] = [holdSince];
    const where: string[] = [];
    if (filter.merchantId) where.push(`l.merchant_id = $${params.push(filter.merchantId)}`);
    if (filter.active !== undefined) where.push(`l.active = $${params.push(filter.active)}`);
    if (filter.after) where.push(afterCursorSql('l.created_at', 'l.id', `$${params.push(filter.after.createdUs)}`, `$${params.push(filter.after.id)}`));
    const rows = await sqlRows<Record<string, unknown>>(
      this.links.manager,
      `SELECT l.*, ${microsecondsSql('l.created_at')} AS created_us, ${COUNT_COLUMNS}
         FROM payment_links l ${COUNTS('$1')}
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY l.created_at DESC, l.id DESC
        LIMIT $${params.push(filter.limit + 1)}`,
      params,
    );
    return rows.map((row) => {
      const counted = this.counted(this.links.manager, row);
      return { ...counted, id: counted.link.id, created_us: row.created_us as string };
    });
  }

  /** Deactivates a link (of this merchant's, when given) still active; false when there was none to deactivate. */
  async deactivate(id: string, merchantId: string | undefined, at: Date): Promise<boolean> {
    const params: unknown[] = [id, at];
    const rows = await sqlRows<{ id: string }>(
      this.links.manager,
      `UPDATE payment_links SET active = false, deactivated_at = $2, updated_at = $2
        WHERE id = $1 AND active ${merchantId === undefined ? '' : `AND merchant_id = $${params.push(merchantId)}`}
        RETURNING id`,
      params,
    );
    return rows.length > 0;
  }

  /** The link a page's slug names, with its merchant (its display name: `display_name`, else its name). */
  async findBySlug(slug: string): Promise<LinkWithMerchant | null> {
    return this.withMerchant(this.links.manager, `WHERE l.slug = $1`, [slug]);
  }

  /** The same, locked (`FOR UPDATE` of the link) inside the caller's transaction: opens of one link are decided one at a time. */
  async lockBySlug(tx: EntityManager, slug: string): Promise<LinkWithMerchant | null> {
    return this.withMerchant(tx, `WHERE l.slug = $1 FOR UPDATE OF l`, [slug]);
  }

  /** A link's counts now (inside the caller's transaction, which holds the link locked). */
  async countsOf(tx: EntityManager, id: string, holdSince: Date): Promise<PaymentLinkCounts> {
    const rows = await sqlRows<Record<string, unknown>>(tx, `SELECT ${COUNT_COLUMNS} FROM payment_links l ${COUNTS('$2')} WHERE l.id = $1`, [id, holdSince]);
    return countsOfRow(rows[0] ?? {});
  }

  private async withMerchant(executor: Executor, where: string, params: unknown[]): Promise<LinkWithMerchant | null> {
    const rows = await sqlRows<Record<string, unknown>>(
      executor,
      `SELECT l.*, m.name AS m_name, m.provider AS m_provider, m.active AS m_active, coalesce(nullif(m.display_name, ''), m.name) AS m_display_name
         FROM payment_links l JOIN merchants m ON m.id = l.merchant_id
        ${where}`,
      params,
    );
    const row = rows[0];
    if (!row) return null;
    const link = hydrate(executor, PaymentLink, row);
    return {
      link,
      merchant: {
        id: link.merchantId,
        name: row.m_name as string,
        provider: (row.m_provider as string | null) ?? null,
        active: row.m_active as boolean,
        displayName: row.m_display_name as string,
      },
    };
  }

  private counted(executor: Executor, row: Record<string, unknown>): CountedLink {
    return { link: hydrate(executor, PaymentLink, row), counts: countsOfRow(row), merchantActive: row.m_active as boolean };
  }
}

function countsOfRow(row: Record<string, unknown>): PaymentLinkCounts {
  return { payments: Number(row.c_payments ?? 0), paid: Number(row.c_paid ?? 0), pending: Number(row.c_pending ?? 0), opening: Number(row.c_opening ?? 0) };
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { afterCursorSql, type CursorPosition, microsecondsSql } from '../common/http/cursor';
import { hydrate, sqlRows } from '../database/sql';
import type { RecurrenceStatus } from '../domain/recurrence';
import { Recurrence } from './recurrence.entity';

/** A recurrence held under `FOR UPDATE`, with where its merchant takes events. */
export interface LockedRecurrence {
  recurrence: Recurrence;
  webhookUrl: string | null;
}

/** A recurrence with what its checkout page shows of its merchant. */
export interface CheckoutRecurrence {
  recurrence: Recurrence;
  /** `display_name`, or the merchant's name when it has none. */
  merchantName: string;
  /** `#rrggbb` or null. */
  brandColor: string | null;
}

export interface RecurrenceListFilter {
  merchantId?: string;
  status?: RecurrenceStatus;
  externalId?: string;
  after?: CursorPosition;
  limit: number;
}

/** Every query of the `recurrences` table. */
@Injectable()
export class RecurrenceRepository {
  constructor(@InjectRepository(Recurrence) private readonly recurrences: Repository<Recurrence>) {}

  /** Stores a new recurrence; the same id again (a retried create) changes nothing. */
  async insert(recurrence: Recurrence): Promise<void> {
    await this.recurrences.createQueryBuilder().insert().into(Recurrence).values(recurrence).orIgnore().execute();
  }

  findById(id: string): Promise<Recurrence | null> {
    return this.recurrences.findOneBy({ id });
  }

  findForMerchant(merchantId: string, id: string): Promise<Recurrence | null> {
    return this.recurrences.findOneBy({ id, merchantId });
  }

  async listPage(filter: RecurrenceListFilter): Promise<{ recurrence: Recurrence; id: string; created_us: string }[]> {
    const qb = this.recurrences.createQueryBuilder('r').addSelect(microsecondsSql('r.created_at'), 'created_us');
    if (filter.merchantId) qb.andWhere('r.merchant_id = :merchantId', { merchantId: filter.merchantId });
    if (filter.status) qb.andWhere('r.status = :status', { status: filter.status });
    if (filter.externalId) qb.andWhere('r.external_id = :externalId', { externalId: filter.externalId });
    if (filter.after) qb.andWhere(afterCursorSql('r.created_at', 'r.id', ':afterUs', ':afterId'), { afterUs: filter.after.createdUs, afterId: filter.after.id });
    const { entities, raw } = await qb
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .limit(filter.limit + 1)
      .getRawAndEntities<{ created_us: string }>();
    return entities.map((recurrence, i) => ({ recurrence, id: recurrence.id, created_us: raw[i]!.created_us }));
  }

  /** Locks (`FOR UPDATE`) the merchant's own recurrence, for the merchant's cancel and charges. */
  lockForMerchant(tx: EntityManager, merchantId: string, id: string): Promise<LockedRecurrence | null> {
    return this.lockWhere(tx, 'r.id = $1 AND r.merchant_id = $2', [id, merchantId]);
  }

  /** Locks the recurrence a PSP's report names, at the account that reports it. */
  lockForProviderReport(tx: EntityManager, provider: string, accountId: string | null, providerRecurrenceId: string): Promise<LockedRecurrence | null> {
    return this.lockWhere(tx, 'r.provider = $1 AND r.provider_account_id IS NOT DISTINCT FROM $2 AND r.provider_recurrence_id = $3', [provider, accountId, providerRecurrenceId]);
  }

  lockById(tx: EntityManager, id: string): Promise<LockedRecurrence | null> {
    return this.lockWhere(tx, 'r.id = $1', [id]);
  }

  private async lockWhere(tx: EntityManager, where: string, params: unknown[]): Promise<LockedRecurrence | null> {
    const rows = await sqlRows<Record<string, unknown>>(
      tx,
      `SELECT r.*, r.start_date::text AS start_date, r.end_date::text AS end_date, m.webhook_url AS merchant_webhook_url
         FROM recurrences r JOIN merchants m ON m.id = r.merchant_id
        WHERE ${where}
          FOR UPDATE OF r`,
      params,
    );
    const row = rows[0];
    return row ? { recurrence: hydrate(tx, Recurrence, row), webhookUrl: row.merchant_webhook_url as string | null } : null;
  }

  /** Writes what a decision changed on a recurrence the caller holds locked. */
  async update(tx: EntityManager, recurrence: Recurrence): Promise<void> {
    await tx.getRepository(Recurrence).update(
      { id: recurrence.id },
      {
        status: recurrence.status,
        cancelledBy: recurrence.cancelledBy,
        authorizationCopyPaste: recurrence.authorizationCopyPaste,
        authorizationExpiresAt: recurrence.authorizationExpiresAt,
        nextReconcileAt: recurrence.nextReconcileAt,
        updatedAt: recurrence.updatedAt,
      },
    );
  }

  /**
   * Recurrences waiting for the payer whose read-back is due (`FOR UPDATE SKIP LOCKED`; moving
   * `next_reconcile_at` by `leaseMs` is the lease, so processes side by side take different ones).
   */
  async claimDueForReconciliationSkipLocked(now: Date, limit: number, leaseMs: number): Promise<Recurrence[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.recurrences.manager,
      `WITH due AS (
         SELECT id FROM recurrences
          WHERE next_reconcile_at IS NOT NULL AND next_reconcile_at <= $1
          ORDER BY next_reconcile_at
          LIMIT $2
            FOR UPDATE SKIP LOCKED
       )
       UPDATE recurrences r SET next_reconcile_at = $1::timestamptz + make_interval(secs => $3::double precision / 1000)
         FROM due WHERE r.id = due.id
       RETURNING r.*, r.start_date::text AS start_date, r.end_date::text AS end_date`,
      [now, limit, leaseMs],
    );
    return rows.map((row) => hydrate(this.recurrences.manager, Recurrence, row));
  }

  /**
   * The recurrence a checkout page shows its authorization on (docs/checkout.md), by its token
   * through the unique index, with the name and colour its merchant's pages show.
   */
  async findForCheckout(token: string): Promise<CheckoutRecurrence | null> {
    const [row] = await sqlRows<Record<string, unknown>>(
      this.recurrences.manager,
      `SELECT r.*, r.start_date::text AS start_date, r.end_date::text AS end_date,
              COALESCE(NULLIF(m.display_name, ''), m.name) AS merchant_display_name, m.brand_color AS merchant_brand_color
         FROM recurrences r JOIN merchants m ON m.id = r.merchant_id
        WHERE r.checkout_token = $1`,
      [token],
    );
    if (!row) return null;
    return {
      recurrence: hydrate(this.recurrences.manager, Recurrence, row),
      merchantName: row.merchant_display_name as string,
      brandColor: (row.merchant_brand_color as string | null) ?? null,
    };
  }

  /** What the open checkout pages follow live, of the recurrences whose tokens are given (the unique index). */
  async checkoutStates(tokens: readonly string[]): Promise<Pick<Recurrence, 'checkoutToken' | 'status' | 'authorizationExpiresAt'>[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.recurrences.manager,
      `SELECT checkout_token, status, authorization_expires_at FROM recurrences WHERE checkout_token = ANY($1::text[])`,
      [tokens],
    );
    return rows.map((row) => hydrate(this.recurrences.manager, Recurrence, row));
  }

  /** Recurrences by status, for the metrics gauge. */
  countByStatus(): Promise<{ status: RecurrenceStatus; count: number }[]> {
    return sqlRows(this.recurrences.manager, `SELECT status, count(*)::int AS count FROM recurrences GROUP BY status`);
  }
}

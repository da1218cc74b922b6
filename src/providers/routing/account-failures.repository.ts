import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sqlRows } from '../../database/sql';

/** An account's failed create attempts (the accounts' `health` in the admin API). */
export interface AccountFailureSummary {
  recentFailures: number;
  lastFailureAt: Date | null;
  lastError: string | null;
}

/**
 * Reads the routing attempts table (written by the payments module, docs/providers.md, Routing)
 * for the provider accounts' health. Raw SQL on the table so the provider layer imports nothing of
 * the payments layer above it.
 */
@Injectable()
export class AccountFailureRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Each account's attempts other than `charged` since `since`, with its newest such attempt. Accounts with none are absent. */
  async summaries(accountIds: string[], since: Date): Promise<Map<string, AccountFailureSummary>> {
    const summaries = new Map<string, AccountFailureSummary>();
    if (accountIds.length === 0) return summaries;
    const list = accountIds.map((_, i) => `$${i + 2}`).join(', ');
    const rows = await sqlRows<{ account_id: string; recent: string | number; last_at: Date | string | null; last_error: string | null }>(
      this.dataSource,
      `SELECT a.account_id,
              (SELECT count(*) FROM payment_attempts r WHERE r.account_id = a.account_id AND r.outcome <> 'charged' AND r.created_at >= $1) AS recent,
              l.created_at AS last_at, l.error AS last_error
         FROM (SELECT DISTINCT account_id FROM payment_attempts WHERE account_id IN (${list}) AND outcome <> 'charged') a
         JOIN LATERAL (SELECT created_at, error FROM payment_attempts f
                        WHERE f.account_id = a.account_id AND f.outcome <> 'charged'
                        ORDER BY f.created_at DESC LIMIT 1) l ON true`,
      [since, ...accountIds],
    );
    for (const row of rows) {
      summaries.set(row.account_id, {
        recentFailures: Number(row.recent),
        lastFailureAt: row.last_at === null ? null : new Date(row.last_at),
        lastError: row.last_error,
      });
    }
    return summaries;
  }
}

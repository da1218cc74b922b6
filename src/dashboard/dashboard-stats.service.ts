import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { centsToReais } from '../common/money';
import { AppConfig } from '../config/app-config';
import { sqlRows } from '../database/sql';
import { PAYMENT_STATUSES } from '../payments/payment-status';
import type { StatsQuery } from './dto/stats.query';
import type { PeriodStatsView, ProviderStatsView, StatsView } from './dto/stats.view';

const DAY_MS = 86_400_000;
const DAYS = 7;
const PROVIDER_WINDOW_HOURS = 24;

interface DayRow {
  day: number;
  payments: number;
  paid_count: number;
  paid_cents: string;
}

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * Numbers for the dashboard overview, from the payments, deliveries and idempotency tables.
 *
 * Days are 24-hour buckets counted back from `day_start` (the operator's local midnight, sent by
 * the dashboard), so "today" matches the operator's clock without the database knowing time zones.
 *
 * A provider's error rate: no table records upstream failures as such (a create that fails at the
 * provider stores no payment), but its idempotency record does: it is left `retryable`, and every
 * retry bumps its `attempt`. So over the last 24 hours, failed attempts are the attempts of
 * idempotency records that did not end in a payment (all of a retryable record's, all but the last
 * of a completed one's), attributed to the merchant's provider, and the rate is
 * failed / (payments created + failed). Records kept less than 24 h (IDEMPOTENCY_TTL_HOURS) shorten
 * the window; a record taken over after a crashed process counts that attempt as failed too.
 */
@Injectable()
export class DashboardStatsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async overview(query: StatsQuery): Promise<StatsView> {
    const now = new Date();
    const todayStart = query.day_start ? new Date(query.day_start) : startOfUtcDay(now);
    const weekStart = new Date(todayStart.getTime() - (DAYS - 1) * DAY_MS);
    const windowEnd = new Date(todayStart.getTime() + DAY_MS);
    // A payment paid in the window was created at most one Pix lifetime (plus a day of slack for late
    // confirmations) before it: bounding created_at keeps this query on the created_at index.
    const createdFloor = new Date(weekStart.getTime() - (this.config.pixExpirySeconds * 1000 + DAY_MS));

    const [created, paid, statuses, deliveries, providers] = await Promise.all([
      sqlRows<{ day: number; payments: number }>(
        this.dataSource,
        `SELECT floor(extract(epoch FROM (created_at - $1::timestamptz)) / 86400)::int AS day, count(*)::int AS payments
           FROM payments WHERE created_at >= $1 AND created_at < $2 GROUP BY 1`,
        [weekStart, windowEnd],
      ),
      sqlRows<{ day: number; paid_count: number; paid_cents: string }>(
        this.dataSource,
        `SELECT floor(extract(epoch FROM (paid_at - $1::timestamptz)) / 86400)::int AS day, count(*)::int AS paid_count,
                coalesce(sum(amount_cents), 0)::text AS paid_cents
           FROM payments
          WHERE created_at >= $3 AND created_at < $2 AND paid_at >= $1 AND paid_at < $2 AND status IN ('paid', 'refunded')
          GROUP BY 1`,
        [weekStart, windowEnd, createdFloor],
      ),
      sqlRows<{ status: string; count: number }>(
        this.dataSource,
        `SELECT status, count(*)::int AS count FROM payments WHERE created_at >= $1 AND created_at < $2 GROUP BY status`,
        [weekStart, windowEnd],
      ),
      sqlRows<{ status: string; count: number }>(
        this.dataSource,
        `SELECT status, count(*)::int AS count FROM webhook_deliveries WHERE status IN ('failed', 'pending') GROUP BY status`,
      ),
      this.providerErrorRates(),
    ]);

    const days: DayRow[] = Array.from({ length: DAYS }, (_, day) => ({ day, payments: 0, paid_count: 0, paid_cents: '0' }));
    for (const row of created) if (days[row.day]) days[row.day]!.payments = row.payments;
    for (const row of paid) {
      if (!days[row.day]) continue;
      days[row.day]!.paid_count = row.paid_count;
      days[row.day]!.paid_cents = row.paid_cents;
    }
    const sum = (rows: DayRow[]): PeriodStatsView => ({
      payments: rows.reduce((total, row) => total + row.payments, 0),
      paid_count: rows.reduce((total, row) => total + row.paid_count, 0),
      paid_volume: centsToReais(rows.reduce((total, row) => total + Number(row.paid_cents), 0)),
    });

    return {
      generated_at: now.toISOString(),
      today_start: todayStart.toISOString(),
      week_start: weekStart.toISOString(),
      today: sum(days.slice(DAYS - 1)),
      last_7_days: sum(days),
      daily: days.map((row) => ({ day_start: new Date(weekStart.getTime() + row.day * DAY_MS).toISOString(), ...sum([row]) })),
      by_status: Object.fromEntries(PAYMENT_STATUSES.map((status) => [status, statuses.find((row) => row.status === status)?.count ?? 0])),
      deliveries: {
        failed: deliveries.find((row) => row.status === 'failed')?.count ?? 0,
        pending: deliveries.find((row) => row.status === 'pending')?.count ?? 0,
      },
      provider_window_hours: PROVIDER_WINDOW_HOURS,
      providers,
    };
  }

  private async providerErrorRates(): Promise<ProviderStatsView[]> {
    const [created, failed] = await Promise.all([
      sqlRows<{ provider: string; count: number }>(
        this.dataSource,
        `SELECT provider, count(*)::int AS count FROM payments WHERE created_at >= now() - make_interval(hours => $1) GROUP BY provider`,
        [PROVIDER_WINDOW_HOURS],
      ),
      sqlRows<{ provider: string; count: number }>(
        this.dataSource,
        `SELECT coalesce(m.provider, $2) AS provider,
                sum(CASE WHEN r.state = 'retryable' THEN r.attempt ELSE r.attempt - 1 END)::int AS count
           FROM idempotency_records r JOIN merchants m ON m.id = r.merchant_id
          WHERE r.created_at >= now() - make_interval(hours => $1)
          GROUP BY 1`,
        [PROVIDER_WINDOW_HOURS, this.config.defaultProvider],
      ),
    ]);
    const names = [...new Set([this.config.defaultProvider, ...created.map((row) => row.provider), ...failed.map((row) => row.provider)])].sort();
    return names.map((provider) => {
      const payments = created.find((row) => row.provider === provider)?.count ?? 0;
      const failedAttempts = failed.find((row) => row.provider === provider)?.count ?? 0;
      const attempts = payments + failedAttempts;
      return { provider, payments, failed_attempts: failedAttempts, error_rate: attempts === 0 ? null : Math.round((failedAttempts / attempts) * 10_000) / 10_000 };
    });
  }
}

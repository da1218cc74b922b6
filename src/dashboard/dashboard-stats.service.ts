import { Injectable } from '@nestjs/common';
import { centsToReais } from '../domain/money';
import { AppConfig } from '../config/app-config';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { IdempotencyRecordRepository } from '../idempotency/idempotency-record.repository';
import { PAYMENT_STATUSES } from '../domain/payment-status';
import { PaymentRepository } from '../payments/payment.repository';
import type { StatsQuery } from './dto/stats.query';
import type { PeriodStatsView, ProviderStatsView, StatsView } from './dto/stats.view';

const DAY_MS = 86_400_000;
const DAYS = 7;
const PROVIDER_WINDOW_HOURS = 24;

/** One day of the window, as the overview adds it up. */
interface DayTotals {
  day: number;
  payments: number;
  paidCount: number;
  paidCents: number;
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
 * of a completed one's), attributed to the provider that handled them (the account's provider, which
 * a failed attempt records; the merchant's for records older than that), and the rate is
 * failed / (payments created + failed). Records kept less than 24 h (IDEMPOTENCY_TTL_HOURS) shorten
 * the window; a record taken over after a crashed process counts that attempt as failed too.
 */
@Injectable()
export class DashboardStatsService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly idempotency: IdempotencyRecordRepository,
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
      this.payments.countCreatedPerDay(weekStart, windowEnd),
      this.payments.sumPaidPerDay(weekStart, windowEnd, createdFloor),
      this.payments.countByStatusCreatedBetween(weekStart, windowEnd),
      this.deliveries.countBacklog(),
      this.providerErrorRates(),
    ]);

    const days: DayTotals[] = Array.from({ length: DAYS }, (_, day) => ({ day, payments: 0, paidCount: 0, paidCents: 0 }));
    for (const row of created) if (days[row.day]) days[row.day]!.payments = row.payments;
    for (const row of paid) {
      if (!days[row.day]) continue;
      days[row.day]!.paidCount = row.paidCount;
      days[row.day]!.paidCents = row.paidCents;
    }
    const sum = (rows: DayTotals[]): PeriodStatsView => ({
      payments: rows.reduce((total, row) => total + row.payments, 0),
      paid_count: rows.reduce((total, row) => total + row.paidCount, 0),
      paid_volume: centsToReais(rows.reduce((total, row) => total + row.paidCents, 0)),
    });

    return {
      generated_at: now.toISOString(),
      today_start: todayStart.toISOString(),
      week_start: weekStart.toISOString(),
      today: sum(days.slice(DAYS - 1)),
      last_7_days: sum(days),
      daily: days.map((row) => ({ day_start: new Date(weekStart.getTime() + row.day * DAY_MS).toISOString(), ...sum([row]) })),
      by_status: Object.fromEntries(PAYMENT_STATUSES.map((status) => [status, statuses.find((row) => row.status === status)?.count ?? 0])),
      deliveries: { failed: deliveries.failed, pending: deliveries.pending },
      provider_window_hours: PROVIDER_WINDOW_HOURS,
      providers,
    };
  }

  private async providerErrorRates(): Promise<ProviderStatsView[]> {
    const [created, failed] = await Promise.all([
      this.payments.countCreatedPerProvider(PROVIDER_WINDOW_HOURS),
      this.idempotency.failedAttemptsPerProvider(PROVIDER_WINDOW_HOURS, this.config.defaultProvider),
    ]);
    const names = [...new Set([this.config.defaultProvider, ...created.map((row) => row.provider), ...failed.map((row) => row.provider)])].sort();
    return names.map((provider) => {
      const payments = created.find((row) => row.provider === provider)?.payments ?? 0;
      const failedAttempts = failed.find((row) => row.provider === provider)?.failedAttempts ?? 0;
      const attempts = payments + failedAttempts;
      return { provider, payments, failed_attempts: failedAttempts, error_rate: attempts === 0 ? null : Math.round((failedAttempts / attempts) * 10_000) / 10_000 };
    });
  }
}

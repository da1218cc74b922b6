import { ApiProperty } from '@nestjs/swagger';

export class PeriodStatsView {
  @ApiProperty({ example: 42, description: 'Payments created in the period.' }) payments: number;
  @ApiProperty({ example: 30, description: 'Payments paid in the period (by paid time; refunded later included).' }) paid_count: number;
  @ApiProperty({ example: 1234.5, description: 'Amount of those paid payments, in reais.' }) paid_volume: number;
}

export class DailyStatsView extends PeriodStatsView {
  @ApiProperty({ format: 'date-time', description: 'Start of the 24-hour day.' }) day_start: string;
}

export class DeliveryStatsView {
  @ApiProperty({ example: 2, description: 'Deliveries that exhausted their retries (redeliverable).' }) failed: number;
  @ApiProperty({ example: 5, description: 'Deliveries waiting for their next attempt.' }) pending: number;
}

export class ProviderStatsView {
  @ApiProperty({ example: 'efi' }) provider: string;
  @ApiProperty({ example: 120, description: 'Payments the provider created in the window.' }) payments: number;
  @ApiProperty({ example: 3, description: 'Create attempts that did not end in a payment (upstream errors, timeouts).' }) failed_attempts: number;
  @ApiProperty({ type: Number, nullable: true, example: 0.0244, description: 'failed_attempts / (payments + failed_attempts); null without attempts.' })
  error_rate: number | null;
}

/** `GET /admin/api/stats`: the dashboard overview. */
export class StatsView {
  @ApiProperty({ format: 'date-time' }) generated_at: string;
  @ApiProperty({ format: 'date-time' }) today_start: string;
  @ApiProperty({ format: 'date-time', description: 'Start of the 7-day window (today and the 6 days before).' }) week_start: string;
  @ApiProperty({ type: PeriodStatsView }) today: PeriodStatsView;
  @ApiProperty({ type: PeriodStatsView }) last_7_days: PeriodStatsView;
  @ApiProperty({ type: [DailyStatsView], description: 'One entry per day of the 7-day window, oldest first.' }) daily: DailyStatsView[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { pending: 3, paid: 30, expired: 2, cancelled: 0, failed: 0, refunded: 1 },
    description: 'Payments created in the 7-day window, by current status.',
  })
  by_status: Record<string, number>;
  @ApiProperty({ type: DeliveryStatsView }) deliveries: DeliveryStatsView;
  @ApiProperty({ example: 24, description: 'Window of the provider error rates.' }) provider_window_hours: number;
  @ApiProperty({ type: [ProviderStatsView] }) providers: ProviderStatsView[];
}

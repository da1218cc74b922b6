import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyRecord } from './idempotency-record.entity';
import { IdempotencyPurgeJob } from './idempotency-purge.job';
import { IdempotencyStatsRepository } from './idempotency-stats.repository';
import { IdempotencyService } from './idempotency.service';

@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyRecord])],
  providers: [IdempotencyService, IdempotencyPurgeJob, IdempotencyStatsRepository],
  exports: [IdempotencyService, IdempotencyStatsRepository],
})
export class IdempotencyModule {}

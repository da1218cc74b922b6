import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyRecord } from './idempotency-record.entity';
import { IdempotencyPurgeJob } from './idempotency-purge.job';
import { IdempotencyRecordRepository } from './idempotency-record.repository';
import { IdempotencyService } from './idempotency.service';

@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyRecord])],
  providers: [IdempotencyRecordRepository, IdempotencyService, IdempotencyPurgeJob],
  exports: [IdempotencyService, IdempotencyRecordRepository],
})
export class IdempotencyModule {}

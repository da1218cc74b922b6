import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyRecord } from './idempotency-record.entity';
import { IdempotencyPurgeJob } from './idempotency-purge.job';
import { IdempotencyService } from './idempotency.service';

@Module({ imports: [TypeOrmModule.forFeature([IdempotencyRecord])], providers: [IdempotencyService, IdempotencyPurgeJob], exports: [IdempotencyService] })
export class IdempotencyModule {}

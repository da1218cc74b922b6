import { Module } from '@nestjs/common';
import { IdempotencyPurgeJob } from './idempotency-purge.job';
import { IdempotencyService } from './idempotency.service';

@Module({ providers: [IdempotencyService, IdempotencyPurgeJob], exports: [IdempotencyService] })
export class IdempotencyModule {}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { sqlRows } from '../database/sql';
import { IdempotencyRecord } from './idempotency-record.entity';

/** Create attempts at one provider that did not end in a payment. */
export interface ProviderFailedAttempts {
  provider: string;
  failedAttempts: number;
}

/** The dashboard's statistics over the `idempotency_records` table. */
@Injectable()
export class IdempotencyStatsRepository {
  constructor(@InjectRepository(IdempotencyRecord) private readonly records: Repository<IdempotencyRecord>) {}

  /**
   * Over the records created in the last `hours` hours (by the database's now()), the attempts that
   * did not end in a payment, per provider of the record's merchant (`defaultProvider` for a
   * merchant without one): every attempt of a retryable record, all but the last of any other.
   */
  failedAttemptsPerProvider(hours: number, defaultProvider: string): Promise<ProviderFailedAttempts[]> {
    return sqlRows<ProviderFailedAttempts>(
      this.records.manager,
      `SELECT coalesce(m.provider, $2) AS provider,
              sum(CASE WHEN r.state = 'retryable' THEN r.attempt ELSE r.attempt - 1 END)::int AS "failedAttempts"
         FROM idempotency_records r JOIN merchants m ON m.id = r.merchant_id
        WHERE r.created_at >= now() - make_interval(hours => $1)
        GROUP BY 1`,
      [hours, defaultProvider],
    );
  }
}

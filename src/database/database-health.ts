import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { within } from '../common/timeout';

/** Whether the database answers, for GET /health. */
@Injectable()
export class DatabaseHealth {
  constructor(private readonly dataSource: DataSource) {}

  /** True once the data source is up and answers `SELECT 1` within `timeoutMs`; never throws. */
  async ping(timeoutMs: number): Promise<boolean> {
    if (!this.dataSource.isInitialized) return false;
    const answer = this.dataSource.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return within(answer, timeoutMs, () => false);
  }
}

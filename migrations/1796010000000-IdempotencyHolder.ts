import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which gateway process holds an idempotency record (`holder`, its per-process instance id), so a
 * process whose request failed without releasing its claim (the release is a write, and the database
 * was unreachable) can take the claim over at once on the retry instead of waiting for the lock
 * meant for dead processes (docs/operations.md, Database outage). Null on records claimed before it.
 */
export class IdempotencyHolder1796010000000 implements MigrationInterface {
  name = 'IdempotencyHolder1796010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_records ADD COLUMN holder text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_records DROP COLUMN holder`);
  }
}

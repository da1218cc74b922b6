import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The money invariant check (docs/operations.md, Money invariant check): each run, and each payment
 * whose money the PSP and the gateway see differently.
 *
 * - One run at a time across every process: a unique index over the runs not finished. A run holds
 *   `lease_until` (renewed while it works, on the database's clock); a run whose lease lapsed lost
 *   its process and is closed by the next one to start.
 * - One daily run per day: `daily_on` is unique (NULL for an operator's run, and for a daily run
 *   that was abandoned, so the day is run again).
 * - Lines are deleted with their run; payments are not referenced, so an old line never holds one.
 */
export class InvariantChecks1796030000000 implements MigrationInterface {
  name = 'InvariantChecks1796030000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invariant_checks (
        id text PRIMARY KEY,
        trigger text NOT NULL CHECK (trigger IN ('daily', 'operator')),
        daily_on date,
        window_start timestamptz NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz NOT NULL,
        finished_at timestamptz,
        checked integer NOT NULL DEFAULT 0,
        mismatches integer NOT NULL DEFAULT 0,
        unverifiable integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        error text
      )`);
    await q.query(`CREATE UNIQUE INDEX invariant_checks_one_running_idx ON invariant_checks ((finished_at IS NULL)) WHERE finished_at IS NULL`);
    await q.query(`CREATE UNIQUE INDEX invariant_checks_daily_idx ON invariant_checks (daily_on)`);
    await q.query(`CREATE INDEX invariant_checks_started_idx ON invariant_checks (started_at DESC, id DESC)`);
    await q.query(`
      CREATE TABLE invariant_mismatches (
        check_id text NOT NULL REFERENCES invariant_checks (id) ON DELETE CASCADE,
        payment_id text NOT NULL,
        merchant_id text NOT NULL,
        provider text NOT NULL,
        provider_account_id text,
        field text NOT NULL CHECK (field IN ('received', 'returned', 'status')),
        gateway_status text NOT NULL,
        psp_status text NOT NULL,
        gateway_cents bigint,
        psp_cents bigint,
        note text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (check_id, payment_id, field)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE invariant_mismatches`);
    await q.query(`DROP TABLE invariant_checks`);
  }
}

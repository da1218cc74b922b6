import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every account a create tried (docs/providers.md, Routing), and the charges left behind at
 * accounts that failed ambiguously (orphans), which a background job settles.
 *
 * `payment_id` is the id the idempotency claim reserves: the same on every retry of one
 * Idempotency-Key, and the payment's id once the create succeeds. It does not reference `payments`
 * because a create that fails at every account leaves attempts (and orphans to cancel) but no
 * payment row, and a payment row cannot exist before its charge (the statuses are fixed, and the
 * row is written with its completed idempotency record in one statement). See docs/architecture.md,
 * Creating a payment.
 *
 * The orphan columns are set only on `ambiguous` attempts; `orphan_locked_until` is the job's lease
 * (claimed with FOR UPDATE SKIP LOCKED, safe with several processes).
 */
export class PaymentAttempts1795610000000 implements MigrationInterface {
  name = 'PaymentAttempts1795610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_attempts (
        id text PRIMARY KEY,
        payment_id text NOT NULL,
        merchant_id text NOT NULL REFERENCES merchants (id),
        attempt integer NOT NULL,
        account_id text,
        provider text NOT NULL,
        environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
        txid text,
        provider_payment_id text,
        outcome text NOT NULL CHECK (outcome IN ('charged', 'refused', 'circuit_open', 'ambiguous', 'rejected')),
        upstream_status integer,
        error text,
        duration_ms integer NOT NULL,
        created_at timestamptz NOT NULL,
        orphan_status text CHECK (orphan_status IN ('pending', 'cancelled', 'absent', 'paid', 'failed')),
        orphan_tries integer NOT NULL DEFAULT 0,
        orphan_last_error text,
        orphan_next_at timestamptz,
        orphan_locked_until timestamptz,
        orphan_updated_at timestamptz
      )`);
    await q.query(`CREATE INDEX payment_attempts_payment_idx ON payment_attempts (payment_id, attempt)`);
    await q.query(`CREATE INDEX payment_attempts_orphan_due_idx ON payment_attempts (orphan_next_at) WHERE orphan_status = 'pending'`);
    // Failures only: the health query reads them, and charged attempts (nearly all) then cost no entry here.
    await q.query(`CREATE INDEX payment_attempts_account_idx ON payment_attempts (account_id, created_at) WHERE outcome <> 'charged'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payment_attempts`);
  }
}

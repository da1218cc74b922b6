import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds (devoluções) and the payment states they lead to (docs/api.md, Refunds).
 *
 * `refunded_amount_cents` is the sum of the payment's succeeded refunds, kept on the row that
 * refunds of one payment lock, so what is left to refund is read and changed under that lock.
 *
 * A refund names the charge it returns money of (`provider`, `provider_account_id`, `txid`): the
 * payment's own, or for origin `routing` the orphan charge an ambiguous account left and a payer
 * paid anyway (`attempt_id`). That is why `payment_id` does not reference `payments`: an orphan's
 * claim may have no payment row (see PaymentAttempts1795610000000). Refunds the PSP reports are
 * matched by (`payment_id`, `provider_refund_id`), unique, so the same report twice is one refund.
 * `next_check_at` is when reconciliation next sends or reads back a pending refund (its lease).
 */
export class Refunds1795700000000 implements MigrationInterface {
  name = 'Refunds1795700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments DROP CONSTRAINT payments_status_check`);
    await q.query(
      `ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('pending', 'paid', 'expired', 'cancelled', 'failed', 'partially_refunded', 'refunded'))`,
    );
    await q.query(`ALTER TABLE payments ADD COLUMN refunded_amount_cents bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE payments ADD CONSTRAINT payments_refunded_amount_check CHECK (refunded_amount_cents >= 0 AND refunded_amount_cents <= amount_cents)`);
    await q.query(`ALTER TABLE payment_events DROP CONSTRAINT payment_events_source_check`);
    await q.query(`ALTER TABLE payment_events ADD CONSTRAINT payment_events_source_check CHECK (source IN ('webhook', 'reconciliation', 'gateway'))`);
    await q.query(`ALTER TABLE payment_events ADD COLUMN refund_id text`);

    await q.query(`
      CREATE TABLE refunds (
        id text PRIMARY KEY,
        payment_id text NOT NULL,
        merchant_id text NOT NULL REFERENCES merchants (id),
        origin text NOT NULL CHECK (origin IN ('merchant', 'psp', 'med', 'routing')),
        status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        reason text,
        failure_reason text,
        provider text NOT NULL,
        provider_account_id text,
        txid text NOT NULL,
        provider_payment_id text,
        end_to_end_id text,
        provider_refund_id text,
        attempt_id text,
        next_check_at timestamptz,
        check_tries integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz
      )`);
    await q.query(`CREATE INDEX refunds_payment_idx ON refunds (payment_id, created_at, id)`);
    await q.query(`CREATE UNIQUE INDEX refunds_provider_refund_idx ON refunds (payment_id, provider_refund_id) WHERE provider_refund_id IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX refunds_attempt_idx ON refunds (attempt_id) WHERE attempt_id IS NOT NULL`);
    await q.query(`CREATE INDEX refunds_due_idx ON refunds (next_check_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE refunds`);
    await q.query(`ALTER TABLE payment_events DROP COLUMN refund_id`);
    await q.query(`ALTER TABLE payment_events DROP CONSTRAINT payment_events_source_check`);
    await q.query(`ALTER TABLE payment_events ADD CONSTRAINT payment_events_source_check CHECK (source IN ('webhook', 'reconciliation'))`);
    await q.query(`ALTER TABLE payments DROP COLUMN refunded_amount_cents`);
    await q.query(`ALTER TABLE payments DROP CONSTRAINT payments_status_check`);
    await q.query(`ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('pending', 'paid', 'expired', 'cancelled', 'failed', 'refunded'))`);
  }
}

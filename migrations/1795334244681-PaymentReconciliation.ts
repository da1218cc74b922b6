import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When reconciliation may next read a pending payment back from its provider (issue 3). A job
 * claims due payments by pushing this forward in one statement (FOR UPDATE SKIP LOCKED), so two
 * gateway processes never read the same payment at once, and the provider call itself runs with
 * no transaction open: on the embedded database an open transaction would hold its only
 * connection for the whole HTTP round trip. A process that dies mid-check leaves a lease that
 * simply lapses. NULL: never checked.
 */
export class PaymentReconciliation1795334244681 implements MigrationInterface {
  name = 'PaymentReconciliation1795334244681';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments ADD COLUMN next_reconcile_at timestamptz`);
    await q.query(`CREATE INDEX payments_pending_expiry_idx ON payments (expires_at) WHERE status = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX payments_pending_expiry_idx`);
    await q.query(`ALTER TABLE payments DROP COLUMN next_reconcile_at`);
  }
}

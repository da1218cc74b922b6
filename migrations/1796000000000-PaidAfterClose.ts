import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money received after close (docs/api.md, States): a Pix the PSP reports for a cancelled or expired
 * payment makes it `paid` with `paid_after_close` set, so the operator and the merchant can tell it
 * from a payment paid while open (it is money to return). A merchant's `refund_after_close` has such
 * money refunded in full automatically; false, the default, leaves it to the operator. The partial
 * index serves the dashboard's list of such payments.
 */
export class PaidAfterClose1796000000000 implements MigrationInterface {
  name = 'PaidAfterClose1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments ADD COLUMN paid_after_close boolean NOT NULL DEFAULT false`);
    // The dashboard's list of them, newest first: few rows, so a partial index.
    await q.query(`CREATE INDEX payments_paid_after_close_idx ON payments (created_at DESC, id DESC) WHERE paid_after_close`);
    await q.query(`ALTER TABLE merchants ADD COLUMN refund_after_close boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN refund_after_close`);
    await q.query(`DROP INDEX payments_paid_after_close_idx`);
    await q.query(`ALTER TABLE payments DROP COLUMN paid_after_close`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/** What a payer's open checkout page follows, and the changes that move it. */
const WATCHED: [table: string, columns: string][] = [
  ['payments', 'status, amount_cents, due, paid_at, expires_at'],
  ['recurrences', 'status, authorization_copy_paste, authorization_expires_at'],
];

/**
 * A change to a payment's or a recurrence's status (or to what a due-date charge asks) is announced
 * on `gateway_changes` with the table's name, as the lookup caches' tables are (migration
 * ChangeNotifications), so an open checkout page in any process hears of it at the commit and
 * shows it within the second (src/checkout/checkout-watch.ts). Per statement, and only for the
 * columns a page shows: PostgreSQL folds a transaction's identical notifications into one.
 */
export class CheckoutChanges1796090000000 implements MigrationInterface {
  name = 'CheckoutChanges1796090000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, columns] of WATCHED) {
      await q.query(`CREATE TRIGGER ${table}_checkout_changed AFTER UPDATE OF ${columns} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_change()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table] of WATCHED) await q.query(`DROP TRIGGER ${table}_checkout_changed ON ${table}`);
  }
}

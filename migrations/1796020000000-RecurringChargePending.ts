import { MigrationInterface, QueryRunner } from 'typeorm';

const SETTLED = `'scheduled', 'retrying', 'paid', 'failed', 'cancelled', 'expired'`;

/**
 * A recurring charge is written `pending` before the PSP is asked for it, so the partial unique
 * index on (recurrence_id, cycle), which holds every charge but a cancelled or failed one, keeps the
 * cycle for it while the PSP answers: a second request for the same cycle is refused without
 * reaching the PSP (docs/recurrences.md, One charge per cycle). `pending` is the gateway's own
 * status, never shown to merchants; the PSP's answer, a callback or reconciliation moves it on.
 */
export class RecurringChargePending1796020000000 implements MigrationInterface {
  name = 'RecurringChargePending1796020000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE recurring_charges DROP CONSTRAINT recurring_charges_status_check`);
    await q.query(`ALTER TABLE recurring_charges ADD CONSTRAINT recurring_charges_status_check CHECK (status IN ('pending', ${SETTLED}))`);
  }

  async down(q: QueryRunner): Promise<void> {
    // A pending charge has no history of its own yet: without the status it is a charge never made.
    await q.query(`DELETE FROM recurring_charges WHERE status = 'pending'`);
    await q.query(`ALTER TABLE recurring_charges DROP CONSTRAINT recurring_charges_status_check`);
    await q.query(`ALTER TABLE recurring_charges ADD CONSTRAINT recurring_charges_status_check CHECK (status IN (${SETTLED}))`);
  }
}

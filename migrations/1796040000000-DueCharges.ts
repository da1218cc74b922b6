import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Due-date charges (docs/due-charges.md): a payment's `due` terms as the domain holds them (values
 * in hundredths), the payer's address a due-date charge may carry, the batch it was made in, and
 * whether an attempt asked for a due-date charge.
 * All null on an immediate charge; no existing row changes.
 */
export class DueCharges1796040000000 implements MigrationInterface {
  name = 'DueCharges1796040000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments ADD COLUMN due jsonb, ADD COLUMN recipient_address jsonb, ADD COLUMN batch_id text`);
    await q.query(`CREATE INDEX payments_batch_id ON payments (batch_id) WHERE batch_id IS NOT NULL`);
    // Which kind of charge an attempt asked for: an orphan of a due-date charge is read back and cancelled as one.
    await q.query(`ALTER TABLE payment_attempts ADD COLUMN due boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_attempts DROP COLUMN due`);
    await q.query(`DROP INDEX payments_batch_id`);
    await q.query(`ALTER TABLE payments DROP COLUMN batch_id, DROP COLUMN recipient_address, DROP COLUMN due`);
  }
}

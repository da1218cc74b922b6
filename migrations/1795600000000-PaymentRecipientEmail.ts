import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The payer's e-mail a merchant may give with a payment (`recipientEmail`, at most 254 characters),
 * passed to PSPs that ask for one (Mercado Pago) and shown back as `recipient.email`. Nullable:
 * payments made before, and those created without one, have none.
 */
export class PaymentRecipientEmail1795600000000 implements MigrationInterface {
  name = 'PaymentRecipientEmail1795600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments ADD COLUMN recipient_email text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments DROP COLUMN recipient_email`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hosted checkout (docs/checkout.md): every payment and recurrence gets the token of its public
 * page, the payment the URL its page sends the payer back to and the payment link it came from, and
 * a merchant the name and colour its pages show.
 *
 * Existing rows get tokens here: two `gen_random_uuid()`s (the server's strong random source, in
 * PostgreSQL since 13 and in PGlite) without their dashes, 244 random bits. New ones come from the
 * gateway (`newCheckoutToken`). The unique indexes are how a page finds its payment.
 */
export class Checkout1796070000000 implements MigrationInterface {
  name = 'Checkout1796070000000';

  async up(q: QueryRunner): Promise<void> {
    const token = `replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')`;
    await q.query(`ALTER TABLE payments ADD COLUMN checkout_token text, ADD COLUMN return_url text, ADD COLUMN payment_link_id text`);
    await q.query(`UPDATE payments SET checkout_token = ${token}`);
    await q.query(`ALTER TABLE payments ALTER COLUMN checkout_token SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX payments_checkout_token ON payments (checkout_token)`);
    await q.query(`CREATE INDEX payments_payment_link ON payments (merchant_id, payment_link_id, created_at DESC, id DESC) WHERE payment_link_id IS NOT NULL`);
    await q.query(`ALTER TABLE recurrences ADD COLUMN checkout_token text`);
    await q.query(`UPDATE recurrences SET checkout_token = ${token}`);
    await q.query(`ALTER TABLE recurrences ALTER COLUMN checkout_token SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX recurrences_checkout_token ON recurrences (checkout_token)`);
    await q.query(`ALTER TABLE merchants ADD COLUMN display_name text, ADD COLUMN brand_color text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE merchants DROP COLUMN brand_color, DROP COLUMN display_name`);
    await q.query(`DROP INDEX recurrences_checkout_token`);
    await q.query(`ALTER TABLE recurrences DROP COLUMN checkout_token`);
    await q.query(`DROP INDEX payments_payment_link`);
    await q.query(`DROP INDEX payments_checkout_token`);
    await q.query(`ALTER TABLE payments DROP COLUMN payment_link_id, DROP COLUMN return_url, DROP COLUMN checkout_token`);
  }
}

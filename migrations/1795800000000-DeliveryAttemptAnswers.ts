import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The start of what a merchant's endpoint answered to each delivery attempt (at most 1 KiB of
 * UTF-8), for the operator reading why a delivery fails. Nullable: attempts made before, and those
 * that got no answer, have none.
 */
export class DeliveryAttemptAnswers1795800000000 implements MigrationInterface {
  name = 'DeliveryAttemptAnswers1795800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_delivery_attempts ADD COLUMN response_excerpt text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_delivery_attempts DROP COLUMN response_excerpt`);
  }
}

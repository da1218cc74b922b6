import { MigrationInterface, QueryRunner } from 'typeorm';

const JOURNEYS = `'qr', 'qr_with_first_payment', 'request'`;

/**
 * Pix Automático's fourth journey (docs/recurrences.md, Which journey): `qr_with_due_payment`, whose
 * composite QR authorizes the recurrence and pays a due-date charge (the recurrence's first payment,
 * a payment with `due`). No existing row changes.
 */
export class RecurrenceDueJourney1796060000000 implements MigrationInterface {
  name = 'RecurrenceDueJourney1796060000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE recurrences DROP CONSTRAINT recurrences_journey_check`);
    await q.query(`ALTER TABLE recurrences ADD CONSTRAINT recurrences_journey_check CHECK (journey IN (${JOURNEYS}, 'qr_with_due_payment'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Such a recurrence cannot be told as another journey: going back needs none to exist.
    await q.query(`ALTER TABLE recurrences DROP CONSTRAINT recurrences_journey_check`);
    await q.query(`ALTER TABLE recurrences ADD CONSTRAINT recurrences_journey_check CHECK (journey IN (${JOURNEYS}))`);
  }
}

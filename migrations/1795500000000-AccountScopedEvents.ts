import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events are deduplicated per provider account (docs/architecture.md, A provider callback): two
 * accounts of one provider may share credentials, and so report the same Pix (same endToEndId) for
 * different payments; deduplicating per provider let the first account's event swallow the other's.
 * NULLS NOT DISTINCT (PostgreSQL 15) keeps a provider's built-in account, whose events carry no
 * account, deduplicated as before.
 *
 * Payments record the environment of the account that charged them (`sandbox`: a PSP's
 * homologation host, and the built-in simulated PSP). Existing payments take their account's.
 *
 * Accounts can be deleted once nothing pending uses them (docs/providers.md): settled payments keep
 * the id of the account that charged them as history, so that column no longer references the table.
 *
 * Idempotency records remember the provider that was tried, so the dashboard charges a failed
 * attempt to the account's provider rather than the merchant's.
 */
export class AccountScopedEvents1795500000000 implements MigrationInterface {
  name = 'AccountScopedEvents1795500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payment_events ADD COLUMN provider_account_id text`);
    await q.query(`DROP INDEX payment_events_provider_event_idx`);
    await q.query(`CREATE UNIQUE INDEX payment_events_account_event_idx ON payment_events (provider, provider_account_id, provider_event_id) NULLS NOT DISTINCT`);
    await q.query(`ALTER TABLE payments ADD COLUMN environment text NOT NULL DEFAULT 'sandbox' CHECK (environment IN ('sandbox', 'production'))`);
    await q.query(`UPDATE payments p SET environment = a.environment FROM provider_accounts a WHERE a.id = p.provider_account_id`);
    await q.query(`ALTER TABLE payments DROP CONSTRAINT payments_provider_account_id_fkey`);
    await q.query(`ALTER TABLE idempotency_records ADD COLUMN provider text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE idempotency_records DROP COLUMN provider`);
    await q.query(`ALTER TABLE payments ADD CONSTRAINT payments_provider_account_id_fkey FOREIGN KEY (provider_account_id) REFERENCES provider_accounts (id)`);
    await q.query(`ALTER TABLE payments DROP COLUMN environment`);
    await q.query(`DROP INDEX payment_events_account_event_idx`);
    await q.query(`CREATE UNIQUE INDEX payment_events_provider_event_idx ON payment_events (provider, provider_event_id)`);
    await q.query(`ALTER TABLE payment_events DROP COLUMN provider_account_id`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose rows decide who a request is and where its payments go, and the changes that matter. */
const WATCHED: [table: string, events: string][] = [
  ['merchants', 'INSERT OR UPDATE OR DELETE OR TRUNCATE'],
  // A key's last use is written once a minute and changes nothing a request is decided by.
  ['api_keys', 'UPDATE OF key_hash, merchant_id, revoked_at OR DELETE OR TRUNCATE'],
  ['provider_accounts', 'INSERT OR UPDATE OR DELETE OR TRUNCATE'],
  ['merchant_provider_accounts', 'INSERT OR UPDATE OR DELETE OR TRUNCATE'],
];

/**
 * Every committed change to those tables is announced on the `gateway_changes` channel with the
 * table's name, so that each process's lookup caches drop what they hold the moment it commits
 * (docs/architecture.md, Lookup caches). A trigger rather than the application: no write path,
 * an operator's SQL included, can forget to announce itself. NOTIFY is sent at commit, and only then.
 */
export class ChangeNotifications1795820000000 implements MigrationInterface {
  name = 'ChangeNotifications1795820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION gateway_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('gateway_changes', TG_TABLE_NAME);
        RETURN NULL;
      END $$`);
    for (const [table, events] of WATCHED) {
      await q.query(`CREATE TRIGGER ${table}_changed AFTER ${events} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION gateway_notify_change()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table] of WATCHED) await q.query(`DROP TRIGGER ${table}_changed ON ${table}`);
    await q.query(`DROP FUNCTION gateway_notify_change()`);
  }
}

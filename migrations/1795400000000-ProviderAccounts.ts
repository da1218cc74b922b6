import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provider accounts (docs/providers.md): one set of credentials at one PSP, managed by the
 * operator, and the ordered list of accounts each merchant is routed to. Credentials are stored
 * sealed with SECRETS_KEY (`credentials_enc`); `credentials_summary` holds only what may be shown
 * (client id, certificate subject and expiry). A merchant's list is rows, not an array column, so
 * an account in use cannot be deleted from under a merchant (the foreign key refuses).
 */
export class ProviderAccounts1795400000000 implements MigrationInterface {
  name = 'ProviderAccounts1795400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_accounts (
        id text PRIMARY KEY,
        name text NOT NULL,
        provider text NOT NULL,
        environment text NOT NULL DEFAULT 'sandbox' CHECK (environment IN ('sandbox', 'production')),
        base_url text,
        token_url text,
        pix_key text,
        active boolean NOT NULL DEFAULT true,
        credentials_enc text NOT NULL,
        credentials_summary jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX provider_accounts_created_idx ON provider_accounts (created_at DESC, id DESC)`);
    await q.query(`
      CREATE TABLE merchant_provider_accounts (
        merchant_id text NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
        position integer NOT NULL CHECK (position >= 0),
        account_id text NOT NULL REFERENCES provider_accounts (id),
        PRIMARY KEY (merchant_id, position),
        UNIQUE (merchant_id, account_id)
      )`);
    await q.query(`CREATE INDEX merchant_provider_accounts_account_idx ON merchant_provider_accounts (account_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE merchant_provider_accounts`);
    await q.query(`DROP TABLE provider_accounts`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

/** Merchants, their API keys, payments and idempotency records (issue 2). */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE merchants (
        id text PRIMARY KEY,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        active boolean NOT NULL DEFAULT true,
        webhook_url text,
        webhook_signing_secret_enc text,
        provider text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX merchants_created_idx ON merchants (created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        key_hash bytea NOT NULL,
        prefix text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_key_hash_idx ON api_keys (key_hash)`);
    await q.query(`CREATE INDEX api_keys_merchant_idx ON api_keys (merchant_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE payments (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        status text NOT NULL CHECK (status IN ('pending', 'paid', 'expired', 'cancelled', 'failed', 'refunded')),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL CHECK (currency = 'BRL'),
        description text,
        external_id text NOT NULL,
        recipient_document text NOT NULL,
        recipient_name text NOT NULL,
        method text NOT NULL DEFAULT 'pix',
        provider text NOT NULL,
        provider_payment_id text,
        txid text NOT NULL,
        pix_copy_paste text NOT NULL,
        pix_qr_png text NOT NULL,
        expires_at timestamptz,
        paid_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX payments_provider_payment_idx ON payments (provider, provider_payment_id)`);
    await q.query(`CREATE UNIQUE INDEX payments_provider_txid_idx ON payments (provider, txid)`);
    await q.query(`CREATE INDEX payments_merchant_created_idx ON payments (merchant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX payments_merchant_external_idx ON payments (merchant_id, external_id)`);
    await q.query(`CREATE INDEX payments_created_idx ON payments (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX payments_pending_idx ON payments (created_at) WHERE status = 'pending'`);

    await q.query(`
      CREATE TABLE idempotency_records (
        merchant_id text NOT NULL REFERENCES merchants (id),
        key text NOT NULL,
        request_hash text NOT NULL,
        request_path text NOT NULL,
        state text NOT NULL CHECK (state IN ('in_progress', 'retryable', 'completed')),
        locked_until timestamptz,
        attempt integer NOT NULL DEFAULT 1,
        payment_id text NOT NULL,
        txid text NOT NULL,
        response_status integer,
        response_body text,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (merchant_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_records_expires_idx ON idempotency_records (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_records`);
    await q.query(`DROP TABLE payments`);
    await q.query(`DROP TABLE api_keys`);
    await q.query(`DROP TABLE merchants`);
  }
}

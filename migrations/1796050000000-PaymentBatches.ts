import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Batches of due-date charges (docs/api.md, Payment batches): the batch a merchant asked for, and
 * one row per item with what became of it. Items are the work queue too: the background worker
 * claims a chunk of them under a lease (`locked_until`, the database's time) and retries at
 * `next_attempt_at` (the gateway's Clock), so a restart or a second process picks up where one
 * stopped. Which account a chunk was asked at, its PSP batch id and the txids are written before the
 * PSP is called, so a retry asks the same PSP for the same batch.
 *
 * `payment_batch.completed` is forwarded through the one deliveries table: a delivery is now about a
 * payment, a recurrence or a batch, exactly one of the three.
 */
export class PaymentBatches1796050000000 implements MigrationInterface {
  name = 'PaymentBatches1796050000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_batches (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        description text NOT NULL,
        status text NOT NULL CHECK (status IN ('processing', 'completed')),
        provider text NOT NULL,
        item_count integer NOT NULL CHECK (item_count BETWEEN 1 AND 1000),
        chunk_size integer NOT NULL CHECK (chunk_size > 0),
        request_id text NOT NULL,
        event_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CHECK ((status = 'completed') = (completed_at IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX payment_batches_merchant_idx ON payment_batches (merchant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX payment_batches_created_idx ON payment_batches (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX payment_batches_processing_idx ON payment_batches (created_at, id) WHERE status = 'processing'`);

    await q.query(`
      CREATE TABLE payment_batch_items (
        batch_id text NOT NULL REFERENCES payment_batches (id),
        item_index integer NOT NULL CHECK (item_index >= 0),
        merchant_id text NOT NULL REFERENCES merchants (id),
        external_id text NOT NULL,
        chunk integer NOT NULL CHECK (chunk >= 0),
        request jsonb NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        due jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'created', 'failed')),
        mode text CHECK (mode IN ('batch', 'single')),
        payment_id text,
        txid text,
        provider text,
        provider_account_id text,
        psp_batch_id text,
        asked_at timestamptz,
        error_code text,
        error_message text,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (batch_id, item_index),
        UNIQUE (batch_id, external_id),
        CHECK ((status = 'failed') = (error_code IS NOT NULL)),
        CHECK (status <> 'created' OR payment_id IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX payment_batch_items_chunk_idx ON payment_batch_items (batch_id, chunk) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX payment_batch_items_due_idx ON payment_batch_items (next_attempt_at) WHERE status = 'pending'`);

    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN batch_id text REFERENCES payment_batches (id)`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_subject_check`);
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_subject_check CHECK (num_nonnulls(payment_id, recurrence_id, batch_id) = 1)`);
    await q.query(`CREATE INDEX webhook_deliveries_batch_idx ON webhook_deliveries (batch_id) WHERE batch_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM webhook_delivery_attempts a USING webhook_deliveries d WHERE d.id = a.delivery_id AND d.batch_id IS NOT NULL`);
    await q.query(`DELETE FROM webhook_deliveries WHERE batch_id IS NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_subject_check`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN batch_id`);
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_subject_check CHECK (num_nonnulls(payment_id, recurrence_id) = 1)`);
    await q.query(`DROP TABLE payment_batch_items`);
    await q.query(`DROP TABLE payment_batches`);
  }
}

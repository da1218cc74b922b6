import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provider events, and their forwards to merchants (issue 3). An event row, the payment's state
 * change and the delivery row are written in one transaction (transactional outbox); the delivery
 * worker claims due rows with FOR UPDATE SKIP LOCKED and leases them with locked_until, so several
 * processes deliver each attempt once and a crashed process's lease lapses into a retry.
 */
export class WebhookPipeline1763810000000 implements MigrationInterface {
  name = 'WebhookPipeline1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_events (
        id text PRIMARY KEY,
        provider text NOT NULL,
        provider_event_id text NOT NULL,
        type text NOT NULL,
        source text NOT NULL CHECK (source IN ('webhook', 'reconciliation')),
        payment_id text REFERENCES payments (id),
        merchant_id text REFERENCES merchants (id),
        outcome text NOT NULL CHECK (outcome IN ('applied', 'ignored', 'amount_mismatch', 'unmatched')),
        from_status text,
        to_status text,
        amount_cents bigint,
        forward text NOT NULL CHECK (forward IN ('queued', 'no_webhook_url', 'none')),
        note text,
        request_id text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX payment_events_provider_event_idx ON payment_events (provider, provider_event_id)`);
    await q.query(`CREATE INDEX payment_events_payment_idx ON payment_events (payment_id, created_at)`);
    await q.query(`CREATE INDEX payment_events_unmatched_idx ON payment_events (created_at) WHERE payment_id IS NULL`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id text PRIMARY KEY,
        event_id text NOT NULL REFERENCES payment_events (id),
        merchant_id text NOT NULL REFERENCES merchants (id),
        payment_id text NOT NULL REFERENCES payments (id),
        event_type text NOT NULL,
        request_id text NOT NULL,
        body jsonb NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until timestamptz,
        last_status_code integer,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX webhook_deliveries_event_merchant_idx ON webhook_deliveries (event_id, merchant_id)`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX webhook_deliveries_status_idx ON webhook_deliveries (status, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX webhook_deliveries_payment_idx ON webhook_deliveries (payment_id)`);

    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        id text PRIMARY KEY,
        delivery_id text NOT NULL REFERENCES webhook_deliveries (id),
        attempt integer NOT NULL,
        url text,
        status_code integer,
        latency_ms integer,
        error text,
        attempted_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, attempted_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE payment_events`);
  }
}

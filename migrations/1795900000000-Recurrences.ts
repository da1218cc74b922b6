import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pix Automático (docs/recurrences.md): recurrences, the charges of their cycles, and what happened
 * to both. A recurrence lives at the account that created it (no routing), so it keeps the account.
 *
 * One charge per cycle: the partial unique index holds every charge but a cancelled or failed one,
 * as the Pix API's own rule does (a CobR other than REJEITADA or CANCELADA in the same cycle).
 *
 * Their events are their own table (the payment's history keeps its meaning), and their forwards go
 * through the one deliveries table: a delivery is now for a payment or for a recurrence, and its
 * event is in either history, so `event_id` no longer references payment_events.
 *
 * An account that takes recurrences names its `recebedor` (agência, conta, tipoConta): not secret,
 * kept in the clear beside its settings.
 */
export class Recurrences1795900000000 implements MigrationInterface {
  name = 'Recurrences1795900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE provider_accounts ADD COLUMN receiver_account jsonb`);

    await q.query(`
      CREATE TABLE recurrences (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        provider text NOT NULL,
        provider_account_id text,
        environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
        provider_recurrence_id text,
        external_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending_authorization', 'active', 'rejected', 'expired', 'cancelled', 'ended')),
        payer_document text NOT NULL,
        payer_name text NOT NULL,
        contract_id text NOT NULL,
        contract_description text,
        frequency text NOT NULL CHECK (frequency IN ('weekly', 'monthly', 'quarterly', 'semiannual', 'annual')),
        amount_cents bigint CHECK (amount_cents > 0),
        minimum_amount_cents bigint CHECK (minimum_amount_cents > 0),
        start_date date NOT NULL,
        end_date date,
        retry_policy text NOT NULL CHECK (retry_policy IN ('none', 'three_in_seven_days')),
        journey text NOT NULL CHECK (journey IN ('qr', 'qr_with_first_payment', 'request')),
        first_payment_id text REFERENCES payments (id),
        authorization_copy_paste text,
        authorization_expires_at timestamptz,
        cancelled_by text CHECK (cancelled_by IN ('merchant', 'payer', 'psp')),
        next_reconcile_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((amount_cents IS NULL) <> (minimum_amount_cents IS NULL)),
        CHECK (end_date IS NULL OR end_date > start_date)
      )`);
    await q.query(`CREATE INDEX recurrences_merchant_idx ON recurrences (merchant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX recurrences_external_idx ON recurrences (merchant_id, external_id)`);
    await q.query(`CREATE UNIQUE INDEX recurrences_provider_idx ON recurrences (provider, provider_account_id, provider_recurrence_id) NULLS NOT DISTINCT`);
    await q.query(`CREATE INDEX recurrences_reconcile_idx ON recurrences (next_reconcile_at) WHERE next_reconcile_at IS NOT NULL`);

    await q.query(`
      CREATE TABLE recurring_charges (
        id text PRIMARY KEY,
        recurrence_id text NOT NULL REFERENCES recurrences (id),
        merchant_id text NOT NULL REFERENCES merchants (id),
        txid text NOT NULL UNIQUE,
        cycle integer NOT NULL CHECK (cycle >= 0),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        due_date date NOT NULL,
        description text,
        status text NOT NULL CHECK (status IN ('scheduled', 'retrying', 'paid', 'failed', 'cancelled', 'expired')),
        attempts jsonb NOT NULL DEFAULT '[]',
        retries integer NOT NULL DEFAULT 0,
        end_to_end_id text,
        paid_at timestamptz,
        failure_reason text,
        next_reconcile_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX recurring_charges_cycle_idx ON recurring_charges (recurrence_id, cycle) WHERE status NOT IN ('cancelled', 'failed')`);
    await q.query(`CREATE INDEX recurring_charges_recurrence_idx ON recurring_charges (recurrence_id, due_date, created_at, id)`);
    await q.query(`CREATE INDEX recurring_charges_reconcile_idx ON recurring_charges (next_reconcile_at) WHERE next_reconcile_at IS NOT NULL`);

    await q.query(`
      CREATE TABLE recurrence_events (
        id text PRIMARY KEY,
        provider text NOT NULL,
        provider_account_id text,
        provider_event_id text NOT NULL,
        type text NOT NULL,
        source text NOT NULL CHECK (source IN ('webhook', 'reconciliation', 'merchant', 'gateway')),
        recurrence_id text NOT NULL REFERENCES recurrences (id),
        recurring_charge_id text REFERENCES recurring_charges (id),
        merchant_id text NOT NULL REFERENCES merchants (id),
        from_status text,
        to_status text,
        forward text NOT NULL CHECK (forward IN ('queued', 'no_webhook_url', 'none')),
        note text,
        request_id text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX recurrence_events_account_event_idx ON recurrence_events (provider, provider_account_id, provider_event_id) NULLS NOT DISTINCT`);
    await q.query(`CREATE INDEX recurrence_events_recurrence_idx ON recurrence_events (recurrence_id, created_at)`);

    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_id_fkey`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN payment_id DROP NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN recurrence_id text REFERENCES recurrences (id)`);
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_subject_check CHECK (num_nonnulls(payment_id, recurrence_id) = 1)`);
    await q.query(`CREATE INDEX webhook_deliveries_recurrence_idx ON webhook_deliveries (recurrence_id) WHERE recurrence_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM webhook_delivery_attempts a USING webhook_deliveries d WHERE d.id = a.delivery_id AND d.recurrence_id IS NOT NULL`);
    await q.query(`DELETE FROM webhook_deliveries WHERE recurrence_id IS NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_subject_check`);
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN recurrence_id`);
    await q.query(`ALTER TABLE webhook_deliveries ALTER COLUMN payment_id SET NOT NULL`);
    await q.query(`ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES payment_events (id)`);
    await q.query(`DROP TABLE recurrence_events`);
    await q.query(`DROP TABLE recurring_charges`);
    await q.query(`DROP TABLE recurrences`);
    await q.query(`ALTER TABLE provider_accounts DROP COLUMN receiver_account`);
  }
}

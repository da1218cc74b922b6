import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment links (docs/api.md, Payment links): a merchant's reusable link, published at
 * `PUBLIC_BASE_URL/l/<slug>`, and every time a payer opened a payment from it.
 *
 * A link holds no counts: what it sold is counted from `payments.payment_link_id` whenever it is
 * read. An open is written, under the link's row lock, before its payment is asked of the PSP, so
 * that two payers at once cannot both take the last of `max_payments`, and one address cannot hold
 * more than ten pending payments of a link in an hour. Its payment is the link's payment with its
 * `external_id` (`<link id>-<seq>`), found through payments' (merchant_id, external_id) index; the
 * opener's address is kept only as an HMAC under SECRETS_KEY.
 */
export class PaymentLinks1796080000000 implements MigrationInterface {
  name = 'PaymentLinks1796080000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_links (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES merchants (id),
        slug text NOT NULL UNIQUE,
        title text NOT NULL,
        description text,
        amount_cents bigint CHECK (amount_cents > 0),
        min_amount_cents bigint CHECK (min_amount_cents > 0),
        max_amount_cents bigint,
        expires_at timestamptz,
        max_payments integer CHECK (max_payments BETWEEN 1 AND 100000),
        collect_email boolean NOT NULL DEFAULT false,
        return_url text,
        active boolean NOT NULL DEFAULT true,
        deactivated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (
          (amount_cents IS NOT NULL AND min_amount_cents IS NULL AND max_amount_cents IS NULL)
          OR (amount_cents IS NULL AND min_amount_cents IS NOT NULL AND max_amount_cents > min_amount_cents)
        ),
        CHECK (active = (deactivated_at IS NULL))
      )`);
    await q.query(`CREATE INDEX payment_links_merchant_idx ON payment_links (merchant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX payment_links_created_idx ON payment_links (created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE payment_link_opens (
        link_id text NOT NULL REFERENCES payment_links (id),
        seq integer NOT NULL CHECK (seq > 0),
        merchant_id text NOT NULL REFERENCES merchants (id),
        external_id text NOT NULL,
        address_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        failed_at timestamptz,
        PRIMARY KEY (link_id, seq)
      )`);
    await q.query(`CREATE INDEX payment_link_opens_address_idx ON payment_link_opens (link_id, address_hash, created_at)`);
    await q.query(`CREATE INDEX payment_link_opens_recent_idx ON payment_link_opens (link_id, created_at) WHERE failed_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payment_link_opens`);
    await q.query(`DROP TABLE payment_links`);
  }
}

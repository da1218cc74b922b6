import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a real PSP reports about a paid charge, kept on the payment and shown to the merchant
 * (docs/providers.md): the Pix's end-to-end id, the amount actually paid, and who paid (the name,
 * and the document masked: the gateway never stores a payer's full CPF or CNPJ). A payment created
 * through a provider account remembers the account, so its callbacks, reads and reconciliation use
 * the same credentials.
 */
export class PaymentPixDetails1795400000001 implements MigrationInterface {
  name = 'PaymentPixDetails1795400000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payments
        ADD COLUMN provider_account_id text REFERENCES provider_accounts (id),
        ADD COLUMN end_to_end_id text,
        ADD COLUMN paid_amount_cents bigint,
        ADD COLUMN payer_name text,
        ADD COLUMN payer_document_masked text`);
    await q.query(`CREATE INDEX payments_provider_account_idx ON payments (provider_account_id) WHERE provider_account_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payments
        DROP COLUMN provider_account_id,
        DROP COLUMN end_to_end_id,
        DROP COLUMN paid_amount_cents,
        DROP COLUMN payer_name,
        DROP COLUMN payer_document_masked`);
  }
}

import type { AccountEnvironment } from '../providers/provider-adapter';
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { bigintCents } from '../domain/money';
import type { DueTerms } from '../domain/due-charge';
import type { PaymentStatus } from '../domain/payment-status';
import type { PayerAddress } from '../providers/provider-adapter';

@Entity({ name: 'payments' })
export class Payment {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  @Column({ type: 'text' })
  status: PaymentStatus;

  @Column({ name: 'amount_cents', type: 'bigint', transformer: bigintCents })
  amountCents: number;

  @Column({ type: 'text' })
  currency: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ name: 'external_id', type: 'text' })
  externalId: string;

  @Column({ name: 'recipient_document', type: 'text' })
  recipientDocument: string;

  @Column({ name: 'recipient_name', type: 'text' })
  recipientName: string;

  /** The payer's e-mail the merchant gave (passed to PSPs that ask for one); null when none was given. */
  @Column({ name: 'recipient_email', type: 'text', nullable: true })
  recipientEmail: string | null;

  @Column({ type: 'text', default: 'pix' })
  method: string;

  @Column({ type: 'text' })
  provider: string;

  @Column({ name: 'provider_payment_id', type: 'text', nullable: true })
  providerPaymentId: string | null;

  /** Pix transaction id; also the upstream idempotency key, so a retry never charges twice. */
  @Column({ type: 'text' })
  txid: string;

  @Column({ name: 'pix_copy_paste', type: 'text' })
  pixCopyPaste: string;

  /** The QR image of pixCopyPaste as a PNG data URL, rendered once at creation. */
  @Column({ name: 'pix_qr_png', type: 'text' })
  pixQrPng: string;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt: Date | null;

  /** Paid by a Pix the PSP reported after the payment was cancelled or expired (docs/api.md, States): money to return. */
  @Column({ name: 'paid_after_close', type: 'boolean', default: false })
  paidAfterClose: boolean;

  /** The environment of the account that charged: `sandbox` (a homologation host, or the simulated PSP) or `production`. */
  @Column({ type: 'text', default: 'sandbox' })
  environment: AccountEnvironment;

  /** The provider account that charged (`pa_…`); null for a provider's built-in configuration. */
  @Column({ name: 'provider_account_id', type: 'text', nullable: true })
  providerAccountId: string | null;

  /** The Pix that paid it, as the PSP confirmed it. */
  @Column({ name: 'end_to_end_id', type: 'text', nullable: true })
  endToEndId: string | null;

  /** The sum of the payment's succeeded refunds (docs/api.md, Refunds); changed only under the payment's row lock. */
  @Column({ name: 'refunded_amount_cents', type: 'bigint', default: 0, transformer: bigintCents })
  refundedAmountCents: number;

  @Column({ name: 'paid_amount_cents', type: 'bigint', nullable: true, transformer: bigintCents })
  paidAmountCents: number | null;

  @Column({ name: 'payer_name', type: 'text', nullable: true })
  payerName: string | null;

  /** The payer's CPF or CNPJ with all but its middle digits hidden; never stored whole. */
  @Column({ name: 'payer_document_masked', type: 'text', nullable: true })
  payerDocumentMasked: string | null;

  /** A due-date charge's terms (docs/due-charges.md), values in hundredths; null for an immediate charge. */
  @Column({ type: 'jsonb', nullable: true })
  due: DueTerms | null;

  /** The payer's address a due-date charge was given; null when none. */
  @Column({ name: 'recipient_address', type: 'jsonb', nullable: true })
  recipientAddress: PayerAddress | null;

  /** Its public page's token (`/pay/<token>`, docs/checkout.md): random, unrelated to the id. */
  @Column({ name: 'checkout_token', type: 'text' })
  checkoutToken: string;

  /** Where its page sends the payer once paid ("Voltar à loja"), as the create gave it; null for none. */
  @Column({ name: 'return_url', type: 'text', nullable: true })
  returnUrl: string | null;

  /** The payment link (`plink_…`) a payer opened it from, if any. */
  @Column({ name: 'payment_link_id', type: 'text', nullable: true })
  paymentLinkId: string | null;

  /** The batch (`bat_…`) it was created in, if any. */
  @Column({ name: 'batch_id', type: 'text', nullable: true })
  batchId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

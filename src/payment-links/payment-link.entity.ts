import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintCents } from '../domain/money';

/**
 * A merchant's reusable payment link (docs/api.md, Payment links), published at
 * `PUBLIC_BASE_URL/l/<slug>`. It holds no counts: its payments are counted from
 * `payments.payment_link_id` whenever it is read.
 */
@Entity({ name: 'payment_links' })
export class PaymentLink {
  /** `plink_…`. */
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  /** 20 base62 characters (about 119 random bits), unrelated to the id: the page's only key. */
  @Column({ type: 'text' }) slug: string;
  @Column({ type: 'text' }) title: string;
  @Column({ type: 'text', nullable: true }) description: string | null;
  /** A fixed amount; null when the payer chooses one between the two bounds. */
  @Column({ name: 'amount_cents', type: 'bigint', nullable: true, transformer: bigintCents }) amountCents: number | null;
  @Column({ name: 'min_amount_cents', type: 'bigint', nullable: true, transformer: bigintCents }) minAmountCents: number | null;
  @Column({ name: 'max_amount_cents', type: 'bigint', nullable: true, transformer: bigintCents }) maxAmountCents: number | null;
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true }) expiresAt: Date | null;
  @Column({ name: 'max_payments', type: 'integer', nullable: true }) maxPayments: number | null;
  @Column({ name: 'collect_email', type: 'boolean' }) collectEmail: boolean;
  @Column({ name: 'return_url', type: 'text', nullable: true }) returnUrl: string | null;
  @Column({ type: 'boolean' }) active: boolean;
  @Column({ name: 'deactivated_at', type: 'timestamptz', nullable: true }) deactivatedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/**
 * One payment a payer opened from a link, written (under the link's lock) before the PSP is asked
 * for it: it holds its place among the link's `max_payments` and its opener's hourly allowance while
 * the payment is being made. Its payment is the link's payment with its `externalId`.
 */
@Entity({ name: 'payment_link_opens' })
export class PaymentLinkOpen {
  @PrimaryColumn({ name: 'link_id', type: 'text' }) linkId: string;
  /** 1, 2, 3… per link, never reused. */
  @PrimaryColumn({ type: 'integer' }) seq: number;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  /** `<link id>-<seq>`: the payment's `externalId`. */
  @Column({ name: 'external_id', type: 'text' }) externalId: string;
  /** HMAC-SHA256 of the opener's address under SECRETS_KEY, hex: the address itself is never stored. */
  @Column({ name: 'address_hash', type: 'text' }) addressHash: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  /** When its payment could not be made: it holds nothing from then on. */
  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true }) failedAt: Date | null;
}

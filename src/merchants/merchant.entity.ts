import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'merchants' })
export class Merchant {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** The name payers see on the checkout pages (docs/checkout.md); null shows `name`. */
  @Column({ name: 'display_name', type: 'text', nullable: true })
  displayName: string | null;

  /** `#rrggbb`, the checkout pages' accent; null: the gateway's own. */
  @Column({ name: 'brand_color', type: 'text', nullable: true })
  brandColor: string | null;

  @Column({ name: 'webhook_url', type: 'text', nullable: true })
  webhookUrl: string | null;

  /** AES-256-GCM ciphertext of the signing secret (SecretBox); never returned by the API. */
  @Column({ name: 'webhook_signing_secret_enc', type: 'text', nullable: true })
  webhookSigningSecretEnc: string | null;

  /** Money received after close (a Pix paid into a cancelled or expired payment) is refunded in full automatically. */
  @Column({ name: 'refund_after_close', type: 'boolean', default: false })
  refundAfterClose: boolean;

  /** Provider name; null means DEFAULT_PROVIDER. */
  @Column({ type: 'text', nullable: true })
  provider: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { AccountEnvironment, CredentialsSummary } from '../provider-adapter';
import type { ReceiverAccount } from '../recurring';

/** One set of credentials at one PSP (docs/providers.md). The credentials themselves are sealed. */
@Entity({ name: 'provider_accounts' })
export class ProviderAccount {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) name: string;
  /** The adapter's name: `pix-api`, `efi`, `bb`, … */
  @Column({ type: 'text' }) provider: string;
  @Column({ type: 'text', default: 'sandbox' }) environment: AccountEnvironment;
  @Column({ name: 'base_url', type: 'text', nullable: true }) baseUrl: string | null;
  @Column({ name: 'token_url', type: 'text', nullable: true }) tokenUrl: string | null;
  @Column({ name: 'pix_key', type: 'text', nullable: true }) pixKey: string | null;
  @Column({ type: 'boolean', default: true }) active: boolean;
  /** Where its recurring charges settle (the Pix API's `recebedor`); null until the operator sets it. Not secret. */
  @Column({ name: 'receiver_account', type: 'jsonb', nullable: true }) receiverAccount: ReceiverAccount | null;
  /** The credentials as JSON, sealed with SECRETS_KEY (SecretBox). Never returned, never logged. */
  @Column({ name: 'credentials_enc', type: 'text' }) credentialsEnc: string;
  @Column({ name: 'credentials_summary', type: 'jsonb' }) credentialsSummary: CredentialsSummary;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

/** A merchant's ordered list of accounts: position 0 is tried first. */
@Entity({ name: 'merchant_provider_accounts' })
export class MerchantProviderAccount {
  @PrimaryColumn({ name: 'merchant_id', type: 'text' }) merchantId: string;
  @PrimaryColumn({ type: 'integer' }) position: number;
  @Column({ name: 'account_id', type: 'text' }) accountId: string;
}

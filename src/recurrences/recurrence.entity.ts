import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintCents } from '../domain/money';
import type { Canceller, Frequency, Journey, RecurrenceStatus, RetryPolicy } from '../domain/recurrence';
import type { AccountEnvironment } from '../providers/provider-adapter';

/** A payer's authorization to be debited each cycle (migrations/1795900000000-Recurrences.ts). */
@Entity({ name: 'recurrences' })
export class Recurrence {
  /** `rec_…`. */
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'merchant_id', type: 'text' }) merchantId: string;
  @Column({ type: 'text' }) provider: string;
  /** The account it lives at (no routing, no failover); null for a provider's built-in account. */
  @Column({ name: 'provider_account_id', type: 'text', nullable: true }) providerAccountId: string | null;
  @Column({ type: 'text' }) environment: AccountEnvironment;
  /** The PSP's id (the Pix API's idRec). */
  @Column({ name: 'provider_recurrence_id', type: 'text', nullable: true }) providerRecurrenceId: string | null;
  @Column({ name: 'external_id', type: 'text' }) externalId: string;
  @Column({ type: 'text' }) status: RecurrenceStatus;
  @Column({ name: 'payer_document', type: 'text' }) payerDocument: string;
  @Column({ name: 'payer_name', type: 'text' }) payerName: string;
  @Column({ name: 'contract_id', type: 'text' }) contractId: string;
  @Column({ name: 'contract_description', type: 'text', nullable: true }) contractDescription: string | null;
  @Column({ type: 'text' }) frequency: Frequency;
  @Column({ name: 'amount_cents', type: 'bigint', nullable: true, transformer: bigintCents }) amountCents: number | null;
  @Column({ name: 'minimum_amount_cents', type: 'bigint', nullable: true, transformer: bigintCents }) minimumAmountCents: number | null;
  /** Calendar days in Brasília, `YYYY-MM-DD` (pg returns `date` as text with the types the data source sets). */
  @Column({ name: 'start_date', type: 'date' }) startDate: string;
  @Column({ name: 'end_date', type: 'date', nullable: true }) endDate: string | null;
  @Column({ name: 'retry_policy', type: 'text' }) retryPolicy: RetryPolicy;
  @Column({ type: 'text' }) journey: Journey;
  @Column({ name: 'first_payment_id', type: 'text', nullable: true }) firstPaymentId: string | null;
  @Column({ name: 'authorization_copy_paste', type: 'text', nullable: true }) authorizationCopyPaste: string | null;
  /** Its public page's token (`/pay/<token>`, docs/checkout.md), where the payer scans the authorization QR. */
  @Column({ name: 'checkout_token', type: 'text' }) checkoutToken: string;
  @Column({ name: 'authorization_expires_at', type: 'timestamptz', nullable: true }) authorizationExpiresAt: Date | null;
  @Column({ name: 'cancelled_by', type: 'text', nullable: true }) cancelledBy: Canceller | null;
  /** When reconciliation next reads it back while it waits for the payer (its lease). */
  @Column({ name: 'next_reconcile_at', type: 'timestamptz', nullable: true }) nextReconcileAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

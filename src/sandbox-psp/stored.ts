import type { SandboxChargeStatus, SandboxPersonWire, SandboxPixWire } from '../common/sandbox-wire/sandbox-api';
import type { SandboxRefundOrigin, SandboxRefundStatus } from '../common/sandbox-wire/sandbox-api';
import type { SandboxAddressWire } from '../common/sandbox-wire/sandbox-due-api';
import type { DueTerms } from '../domain/due-charge';

// What the simulated PSP keeps of a charge and its refunds: the store and the refund rules both read
// it, so it sits below both (neither imports the other's types).

export interface StoredCharge {
  id: string;
  txid: string;
  status: SandboxChargeStatus;
  amountCents: number;
  description: string | null;
  externalId: string;
  recipient: SandboxPersonWire;
  pixCopiaECola: string;
  notificationUrl: string;
  /** The secret this charge's events are signed with, when its account has one; never shown. */
  webhookSecret?: string;
  createdAt: Date;
  expiresAt: Date;
  paidAt: Date | null;
  /** The Pix that paid it, set when a payment is simulated; kept if the charge later moves on (refunded). */
  pix: SandboxPixWire | null;
  /** Oldest first: the API's and those made outside it. */
  refunds: StoredRefund[];
  /** A due-date charge's terms (due-charges.ts), as created or last changed; absent for an immediate charge. */
  due?: DueTerms;
  /** A due-date charge's amount owed today, worked out again at each read (refreshDueCharge). */
  amountDueCents?: number;
  recipientAddress?: SandboxAddressWire;
  /** The batch a due-date charge was made in (batches.ts). */
  batchId?: string;
}

export interface StoredRefund {
  id: string;
  /** The client's refund id (the gateway's `ref_…`); null for one made outside the API. */
  refundId: string | null;
  chargeId: string;
  txid: string;
  amountCents: number;
  status: SandboxRefundStatus;
  origin: SandboxRefundOrigin;
  reason: string | null;
  failureReason: string | null;
  createdAt: Date;
  settledAt: Date | null;
}

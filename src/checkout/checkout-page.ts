import type { Frequency } from '../domain/recurrence';
import type { PageState } from './render/i18n';

/** What every public page shows of whom it is for. */
export interface PageBrand {
  /** The merchant's display name (or its name). */
  merchantName: string;
  /** `#rrggbb` that white text reads on at AA contrast, or null for the gateway's colour. */
  color: string | null;
}

/** A payment's checkout page, everything it shows: nothing of the payer but a masked name. */
export interface PaymentPage {
  kind: 'payment';
  token: string;
  brand: PageBrand;
  description: string | null;
  amountCents: number;
  /** A due-date charge: its due date, what is owed today and its last payable day (Brasília). */
  due: { date: string; amountDueCents: number; lastPayableDay: string | null } | null;
  payerName: string;
  qrCodePng: string;
  copyPaste: string;
  expiresAt: Date | null;
  state: PageState;
  /** The create's returnUrl with `payment_id`, offered once paid; null without one. */
  returnHref: string | null;
}

/** A recurrence's authorization page: its QR while it waits for the payer, and the terms. */
export interface RecurrencePage {
  kind: 'recurrence';
  token: string;
  brand: PageBrand;
  contractDescription: string | null;
  amountCents: number | null;
  minimumAmountCents: number | null;
  frequency: Frequency;
  startDate: string;
  endDate: string | null;
  payerName: string;
  /** The authorization QR, while the payer may still scan it; null for the request journey. */
  authorization: { qrCodePng: string; copyPaste: string } | null;
  /** What the composite QR also pays now (a first payment), if anything. */
  firstPaymentCents: number | null;
  expiresAt: Date | null;
  state: PageState;
}

export type CheckoutPage = PaymentPage | RecurrencePage;

/** What a page follows live (`/pay/:token/status`, `/pay/:token/events`): amounts in reais, instants ISO 8601. */
export interface LiveStatus {
  status: PageState;
  paidAt: string | null;
  /** A due-date charge's amount owed today; null otherwise. */
  amountDue: number | null;
  expiresAt: string | null;
}

/** The states after which nothing more happens to a page: it stops following. */
export const FINAL_STATES: ReadonlySet<PageState> = new Set<PageState>(['paid', 'expired', 'cancelled', 'failed', 'refunded', 'authorized', 'rejected']);

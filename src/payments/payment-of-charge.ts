import type { DueTerms } from '../domain/due-charge';
import type { AccountEnvironment, PayerAddress, ProviderCharge } from '../providers/provider-adapter';
import { Payment } from './payment.entity';
import { renderQrPngDataUrl } from './qr-png';
import { newCheckoutToken } from '../common/ids';

/** What a payment is made of: the merchant's terms, the account that charged, and the PSP's answer. */
export interface ChargedPayment {
  id: string;
  merchantId: string;
  amountCents: number;
  description: string | null;
  externalId: string;
  recipient: { document: string; name: string; email: string | null };
  account: { provider: string; environment: AccountEnvironment; accountId: string | null };
  charge: ProviderCharge;
  at: Date;
  /** A due-date charge's terms and the payer's address it carries. */
  due?: DueTerms | null;
  recipientAddress?: PayerAddress | null;
  batchId?: string | null;
  /** Where its page sends the payer once paid, and the payment link it came from. */
  returnUrl?: string | null;
  paymentLinkId?: string | null;
}

/** The payment row of a charge just created at a PSP (a payment's own, or a recurrence's first payment). */
export function paymentOfCharge(made: ChargedPayment): Payment {
  const { charge } = made;
  return Object.assign(new Payment(), {
    id: made.id,
    merchantId: made.merchantId,
    status: charge.status,
    amountCents: made.amountCents,
    currency: 'BRL',
    description: made.description,
    externalId: made.externalId,
    recipientDocument: made.recipient.document,
    recipientName: made.recipient.name,
    recipientEmail: made.recipient.email,
    method: 'pix',
    provider: made.account.provider,
    environment: made.account.environment,
    providerPaymentId: charge.providerPaymentId,
    txid: charge.txid,
    pixCopyPaste: charge.copyPaste,
    pixQrPng: renderQrPngDataUrl(charge.copyPaste),
    expiresAt: charge.expiresAt,
    paidAt: charge.paidAt,
    providerAccountId: made.account.accountId,
    endToEndId: charge.pix?.endToEndId ?? null,
    paidAmountCents: charge.pix?.paidAmountCents ?? null,
    payerName: charge.pix?.payer?.name ?? null,
    payerDocumentMasked: charge.pix?.payer?.documentMasked ?? null,
    refundedAmountCents: 0,
    // A new payment was never closed: whatever the PSP says of it now, it was paid while open.
    paidAfterClose: false,
    due: made.due ?? null,
    recipientAddress: made.recipientAddress ?? null,
    batchId: made.batchId ?? null,
    checkoutToken: newCheckoutToken(),
    returnUrl: made.returnUrl ?? null,
    paymentLinkId: made.paymentLinkId ?? null,
    createdAt: made.at,
    updatedAt: made.at,
  } satisfies Payment);
}

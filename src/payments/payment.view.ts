import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { centsToReais } from '../domain/money';
import type { Payment } from './payment.entity';
import { PAYMENT_STATUSES, type PaymentStatus } from '../domain/payment-status';
import { isoOrNull } from '../common/dates';
import type { AccountEnvironment } from '../providers/provider-adapter';
import { dueShownOf } from './due/due-terms';
import { AddressView, DueView } from './due/due.view';

export class RecipientView {
  @ApiProperty({ example: '12345678909', description: 'CPF or CNPJ without punctuation (a CNPJ may hold upper-case letters).' }) document: string;
  @ApiProperty({ example: 'Ana Souza' }) name: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'ana@example.com', description: "The payer's e-mail, when the merchant gave one." }) email: string | null;
  @ApiPropertyOptional({ type: AddressView, nullable: true, description: "The payer's address a due-date charge was given; null otherwise." }) address: AddressView | null;
}

export class PixView {
  @ApiProperty({ example: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E', description: 'Pix transaction id.' }) txid: string;
  @ApiProperty({ example: '00020126…6304ABCD', description: 'BR Code ("Pix copia e cola"), EMV MPM with CRC16.' }) copyPaste: string;
  @ApiProperty({ example: 'data:image/png;base64,iVBORw0KGgo…', description: 'QR image of copyPaste.' }) qrCodePng: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2026-11-26T13:00:00.000Z' }) expiresAt: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'E00038166202611261201abcdefghijk', description: "The paying Pix's end-to-end id, once paid at a real PSP." })
  endToEndId: string | null;
}

export class PayerView {
  @ApiProperty({ example: 'Ana Souza' }) name: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '***.456.789-**', description: 'Masked: only the middle digits.' }) document: string | null;
}

/** The normalised payment every payment endpoint returns in `data` (its field examples make one paid payment at Efí). */
export class PaymentView {
  @ApiProperty({ example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({ enum: PAYMENT_STATUSES, example: 'paid' }) status: PaymentStatus;
  @ApiProperty({ example: 10.5, description: 'Decimal reais.' }) amount: number;
  @ApiProperty({ example: 'BRL' }) currency: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Order 1234' }) description: string | null;
  @ApiProperty({ example: 'order-1234' }) externalId: string;
  @ApiProperty({ type: RecipientView }) recipient: RecipientView;
  @ApiProperty({ type: PixView }) pix: PixView;
  @ApiProperty({ example: 'efi' }) provider: string;
  @ApiProperty({
    enum: ['sandbox', 'production'],
    example: 'production',
    description: "The environment of the account that charged: `sandbox` for a PSP's homologation host and for the built-in simulated PSP.",
  })
  environment: AccountEnvironment;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E', description: "The PSP's id of the charge (the txid at Pix API PSPs)." })
  providerPaymentId: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-26T12:00:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-26T12:01:00.000Z' }) updatedAt: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2026-11-26T12:01:00.000Z' }) paidAt: string | null;
  @ApiProperty({
    example: false,
    description:
      'True when the Pix was received after the payment was cancelled or expired (it became `paid` then): money the payer should get back. ' +
      "Refunded automatically when the merchant's `refund_after_close` is on; otherwise refund it. False on every other payment.",
  })
  paidAfterClose: boolean;
  @ApiProperty({ example: 0, description: 'Decimal reais returned to the payer so far: the sum of succeeded refunds.' }) refundedAmount: number;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 10.5, description: 'What the payer paid, as the PSP confirmed it (decimal reais).' }) paidAmount: number | null;
  @ApiPropertyOptional({ type: PayerView, nullable: true, description: 'Who paid, as the PSP reports it.' }) payer: PayerView | null;
  @ApiPropertyOptional({ type: DueView, nullable: true, description: "A due-date charge's terms (docs/due-charges.md); null for an immediate charge." }) due: DueView | null;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    example: null,
    description:
      'For a due-date charge: what the payer owes paying today in Brasília (discount, abatement, fine and interest applied), computed afresh on each read; null for an immediate charge.',
  })
  amountDue: number | null;
  @ApiProperty({
    format: 'uri',
    example: 'https://pix.example.com/pay/Xq3LmT8vR2kZpW9nB4cY7hJd',
    description:
      "The payment's own page, to send the payer (a link on WhatsApp or e-mail): the amount, the QR and the copia-e-cola code, its status live (docs/checkout.md). Public: its token is the only key, and is not the payment id.",
  })
  checkoutUrl: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'https://shop.example.com/orders/1234',
    description: 'Where the checkout page sends the payer once paid; null for none.',
  })
  returnUrl: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: null, description: 'The payment link (`plink_…`) the payer opened it from; null otherwise.' })
  paymentLinkId: string | null;
}

/** The page a payment, or a recurrence awaiting authorization, is paid or authorized on (docs/checkout.md). */
export function checkoutUrlOf(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/pay/${token}`;
}

/**
 * `amountDueCents`: a due-date charge's amount due today; `publicBaseUrl`: where its checkout page
 * is (PaymentViews gives both).
 */
export function toPaymentView(payment: Payment, amountDueCents: number | null, publicBaseUrl: string): PaymentView {
  return {
    id: payment.id,
    status: payment.status,
    amount: centsToReais(payment.amountCents),
    currency: payment.currency,
    description: payment.description,
    externalId: payment.externalId,
    recipient: { document: payment.recipientDocument, name: payment.recipientName, email: payment.recipientEmail ?? null, address: payment.recipientAddress ?? null },
    pix: { txid: payment.txid, copyPaste: payment.pixCopyPaste, qrCodePng: payment.pixQrPng, expiresAt: isoOrNull(payment.expiresAt), endToEndId: payment.endToEndId },
    provider: payment.provider,
    environment: payment.environment,
    providerPaymentId: payment.providerPaymentId,
    createdAt: payment.createdAt.toISOString(),
    updatedAt: payment.updatedAt.toISOString(),
    paidAt: isoOrNull(payment.paidAt),
    paidAfterClose: payment.paidAfterClose ?? false,
    refundedAmount: centsToReais(payment.refundedAmountCents ?? 0),
    paidAmount: payment.paidAmountCents === null ? null : centsToReais(payment.paidAmountCents),
    payer: payment.payerName === null ? null : { name: payment.payerName, document: payment.payerDocumentMasked },
    due: payment.due ? dueShownOf(payment.due) : null,
    amountDue: amountDueCents === null ? null : centsToReais(amountDueCents),
    checkoutUrl: checkoutUrlOf(publicBaseUrl, payment.checkoutToken),
    returnUrl: payment.returnUrl ?? null,
    paymentLinkId: payment.paymentLinkId ?? null,
  };
}

/** A payment in the admin list: the merchant's view plus whose it is. */
export class AdminPaymentItemView extends PaymentView {
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) merchantId: string;
}

/** A page of the merchant's own payments (`GET /v1/payments`). */
export class PaymentPageView {
  @ApiProperty({ type: [PaymentView] }) items: PaymentView[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}

export class AdminPaymentPageView {
  @ApiProperty({ type: [AdminPaymentItemView] }) items: AdminPaymentItemView[];
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}

import { ApiProperty } from '@nestjs/swagger';
import { isoOrNull } from '../common/dates';
import { centsToReais } from '../domain/money';
import { PaymentView } from '../payments/payment.view';
import type { PaymentLink } from './payment-link.entity';
import { type PaymentLinkCounts, PAYMENT_LINK_STATES, type PaymentLinkState } from './payment-link-rules';

export class AmountRangeView {
  @ApiProperty({ example: 10, description: 'Decimal reais.' }) min: number;
  @ApiProperty({ example: 500, description: 'Decimal reais.' }) max: number;
}

export class CollectView {
  @ApiProperty({ example: false, description: "Whether the page asks the payer's e-mail." }) email: boolean;
}

/** The payment link every `/v1/payment-links` route answers in `data`. */
export class PaymentLinkView {
  @ApiProperty({ example: 'plink_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({
    format: 'uri',
    example: 'https://pix.example.com/l/7QmZ2xT9bLk4Wn8Rc1Vd',
    description: 'The public page to send payers (PUBLIC_BASE_URL + `/l/` + a random slug of about 119 bits, not the id). Anyone with it can pay.',
  })
  url: string;
  @ApiProperty({ example: 'Camiseta azul' }) title: string;
  @ApiProperty({ type: String, nullable: true, example: null }) description: string | null;
  @ApiProperty({ type: Number, nullable: true, example: 59.9, description: 'The fixed amount in decimal reais; null when the payer chooses within `amountRange`.' })
  amount: number | null;
  @ApiProperty({ type: AmountRangeView, nullable: true, description: 'The bounds the payer chooses within; null for a fixed amount.' })
  amountRange: AmountRangeView | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null, description: 'When it stops taking payments; null: never.' })
  expiresAt: string | null;
  @ApiProperty({ type: Number, nullable: true, example: null, description: 'How many payments it sells; null: no limit.' }) maxPayments: number | null;
  @ApiProperty({ type: CollectView }) collect: CollectView;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'Where each payment’s checkout page sends the payer once paid; null for none.' })
  returnUrl: string | null;
  @ApiProperty({ example: true, description: 'False once deactivated (for good).' }) active: boolean;
  @ApiProperty({
    enum: PAYMENT_LINK_STATES,
    example: 'open',
    description:
      'What its page shows: `open` (takes payments), `inactive` (deactivated, or its merchant is), `expired` (past `expiresAt`), `used_up` (its paid and pending payments reach `maxPayments`; a pending one that expires gives its place back).',
  })
  state: PaymentLinkState;
  @ApiProperty({ example: 3, description: 'Payments payers opened from it, whatever their status (`GET /v1/payments?paymentLinkId=`).' }) paymentsCount: number;
  @ApiProperty({ example: 2, description: 'Of those, the ones paid (refunded ones included).' }) paidCount: number;
  @ApiProperty({ format: 'date-time', example: '2026-11-26T12:00:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-26T12:00:00.000Z' }) updatedAt: string;
}

export class PaymentLinkPageView {
  @ApiProperty({ type: [PaymentLinkView] }) items: PaymentLinkView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}

/** A link as the admin API shows it: the merchant's view and whose it is. */
export class AdminPaymentLinkView extends PaymentLinkView {
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) merchant_id: string;
}

export class AdminPaymentLinkPageView {
  @ApiProperty({ type: [AdminPaymentLinkView] }) items: AdminPaymentLinkView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}

/** How many of a link's payments the operator's detail carries. */
export const LATEST_PAYMENTS = 20;

/** `GET /admin/api/payment-links/{id}`: the link with its latest payments. */
export class AdminPaymentLinkDetailView extends AdminPaymentLinkView {
  @ApiProperty({
    type: [PaymentView],
    description: `Its latest payments, newest first (at most ${LATEST_PAYMENTS}); the merchant lists them all with \`GET /v1/payments?paymentLinkId=\`.`,
  })
  payments: PaymentView[];
}

/** The page of a link: `PUBLIC_BASE_URL/l/<slug>` (docs/api.md, Payment links). */
export function paymentLinkUrlOf(publicBaseUrl: string, slug: string): string {
  return `${publicBaseUrl}/l/${slug}`;
}

export function toPaymentLinkView(link: PaymentLink, counts: PaymentLinkCounts, state: PaymentLinkState, publicBaseUrl: string): PaymentLinkView {
  return {
    id: link.id,
    url: paymentLinkUrlOf(publicBaseUrl, link.slug),
    title: link.title,
    description: link.description,
    amount: link.amountCents === null ? null : centsToReais(link.amountCents),
    amountRange: link.minAmountCents === null || link.maxAmountCents === null ? null : { min: centsToReais(link.minAmountCents), max: centsToReais(link.maxAmountCents) },
    expiresAt: isoOrNull(link.expiresAt),
    maxPayments: link.maxPayments,
    collect: { email: link.collectEmail },
    returnUrl: link.returnUrl,
    active: link.active,
    state,
    paymentsCount: counts.payments,
    paidCount: counts.paid,
    createdAt: link.createdAt.toISOString(),
    updatedAt: link.updatedAt.toISOString(),
  };
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { isoOrNull } from '../../common/dates';
import { centsToReais } from '../../domain/money';
import { REFUND_ORIGINS, REFUND_STATUSES, type RefundOrigin, type RefundStatus } from '../../domain/refund';
import type { Refund } from './refund.entity';

/** A refund as merchants see it (docs/api.md, Refunds). */
export class RefundView {
  @ApiProperty({ example: 'ref_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({ example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) paymentId: string;
  @ApiProperty({ example: 3.5, description: 'Decimal reais.' }) amount: number;
  @ApiProperty({ enum: REFUND_STATUSES, example: 'pending', description: 'pending until the PSP settles it; a failed refund gives its amount back.' }) status: RefundStatus;
  @ApiProperty({
    enum: REFUND_ORIGINS,
    example: 'merchant',
    description: "Who asked: `merchant` (this API or the dashboard), `psp` (at the PSP's portal), `med` (a MED return).",
  })
  origin: RefundOrigin;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Item returned' }) reason: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: null, description: 'Why the PSP did not carry it out, when it failed.' }) failureReason: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** A refund as the operator sees it: where it was made, and the orphan charge of a routing refund. */
export class AdminRefundView extends RefundView {
  @ApiProperty({ example: 'efi' }) provider: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'pa_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) providerAccountId: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'D12345678202611261200abcdefghijk', description: "The PSP's id of the refund." }) providerRefundId: string | null;
  @ApiProperty({ example: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E', description: 'The charge refunded: the payment’s, or an orphan’s for origin `routing`.' }) txid: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Origin `routing`: the attempt whose orphan charge this returns.' }) attemptId: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) settledAt: string | null;
}

/** What a refund's view is made of: a stored refund, or one as a transaction is about to leave it. */
export type RefundFields = Pick<Refund, 'id' | 'paymentId' | 'amountCents' | 'status' | 'origin' | 'reason' | 'failureReason' | 'createdAt' | 'updatedAt'>;

export function toRefundView(refund: RefundFields): RefundView {
  return {
    id: refund.id,
    paymentId: refund.paymentId,
    amount: centsToReais(refund.amountCents),
    status: refund.status,
    origin: refund.origin,
    reason: refund.reason,
    failureReason: refund.failureReason,
    createdAt: refund.createdAt.toISOString(),
    updatedAt: refund.updatedAt.toISOString(),
  };
}

export function toAdminRefundView(refund: Refund): AdminRefundView {
  return {
    ...toRefundView(refund),
    provider: refund.provider,
    providerAccountId: refund.providerAccountId,
    providerRefundId: refund.providerRefundId,
    txid: refund.txid,
    attemptId: refund.attemptId,
    settledAt: isoOrNull(refund.settledAt),
  };
}

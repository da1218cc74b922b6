import { ApiProperty } from '@nestjs/swagger';
import { centsToReais } from '../../../domain/money';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../domain/payment-status';
import type { InvariantCheck, InvariantCheckTrigger, InvariantMismatch } from '../invariant-check.entity';
import { INVARIANT_FIELDS, type InvariantField } from '../money-invariant';

/** One payment whose money its PSP and the gateway see differently. */
export class InvariantMismatchView {
  @ApiProperty({ example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) payment_id: string;
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) merchant_id: string;
  @ApiProperty({ example: 'sandbox' }) provider: string;
  @ApiProperty({ type: String, nullable: true, example: 'pa_5hQm2Zt8KcV1xLr9BnW3dF7Y', description: "The account that charged; null for a provider's built-in one." })
  provider_account_id: string | null;
  @ApiProperty({
    enum: INVARIANT_FIELDS,
    example: 'returned',
    description:
      "`received`: what was paid in; `returned`: the sum of succeeded refunds; `status`: the payment's status does not follow from its amounts, or the PSP says all was returned where its refunds cannot be listed.",
  })
  field: InvariantField;
  @ApiProperty({ enum: PAYMENT_STATUSES, example: 'paid', description: "The payment's status at the gateway." }) gateway_status: PaymentStatus;
  @ApiProperty({ enum: PAYMENT_STATUSES, example: 'paid', description: "The charge's status at the PSP." }) psp_status: PaymentStatus;
  @ApiProperty({ type: Number, nullable: true, example: 0, description: "The gateway's amount for the field, in reais; null where it has none." }) gateway_amount: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 3, description: "The PSP's amount for the field, in reais; null where it says nothing of it." }) psp_amount: number | null;
  @ApiProperty({ example: "The PSP returned R$ 3.00 more than the gateway's succeeded refunds record." }) note: string;
  @ApiProperty({ format: 'date-time' }) found_at: string;
}

/** One run of the money invariant check, with the lines it found so far. */
export class InvariantCheckView {
  @ApiProperty({ example: 'ick_7Yb2Qw9ZtR4mK8sLx3Vn6PcD' }) id: string;
  @ApiProperty({ enum: ['daily', 'operator'], example: 'operator', description: 'Who started it: the daily job or an operator.' }) trigger: InvariantCheckTrigger;
  @ApiProperty({
    enum: ['running', 'completed', 'failed'],
    example: 'completed',
    description: '`failed`: it ended before reading every payment of the window (see `error`); its lines are still real.',
  })
  status: 'running' | 'completed' | 'failed';
  @ApiProperty({ format: 'date-time', description: 'Payments created from here on are read, and older ones with a refund since.' }) window_start: string;
  @ApiProperty({ format: 'date-time' }) started_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at: string | null;
  @ApiProperty({ example: 240, description: 'Payments read back from their PSP and compared.' }) checked: number;
  @ApiProperty({ example: 1, description: 'Lines found (below).' }) mismatches: number;
  @ApiProperty({ example: 3, description: 'Payments of which a part could not be compared: a PSP that lists no refunds, a provider this gateway does not run.' })
  unverifiable: number;
  @ApiProperty({ example: 0, description: 'Payments whose PSP could not be asked (an error, a timeout): not compared this time.' }) failed: number;
  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why the run ended early.' }) error: string | null;
  @ApiProperty({ type: [InvariantMismatchView], description: 'At most 500 lines, in the order they were found.' }) lines: InvariantMismatchView[];
}

export function invariantMismatchView(line: InvariantMismatch): InvariantMismatchView {
  return {
    payment_id: line.paymentId,
    merchant_id: line.merchantId,
    provider: line.provider,
    provider_account_id: line.providerAccountId,
    field: line.field,
    gateway_status: line.gatewayStatus,
    psp_status: line.pspStatus,
    gateway_amount: line.gatewayCents === null ? null : centsToReais(line.gatewayCents),
    psp_amount: line.pspCents === null ? null : centsToReais(line.pspCents),
    note: line.note,
    found_at: line.createdAt.toISOString(),
  };
}

export function invariantCheckView(check: InvariantCheck, lines: InvariantMismatch[]): InvariantCheckView {
  return {
    id: check.id,
    trigger: check.trigger,
    status: check.finishedAt === null ? 'running' : check.error === null ? 'completed' : 'failed',
    window_start: check.windowStart.toISOString(),
    started_at: check.startedAt.toISOString(),
    finished_at: check.finishedAt?.toISOString() ?? null,
    checked: check.checked,
    mismatches: check.mismatches,
    unverifiable: check.unverifiable,
    failed: check.failed,
    error: check.error,
    lines: lines.map(invariantMismatchView),
  };
}

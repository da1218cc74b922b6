import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { isoOrNull } from '../common/dates';
import { centsToReais } from '../domain/money';
import {
  ATTEMPT_STATUSES,
  type AttemptStatus,
  CANCELLERS,
  type Canceller,
  FREQUENCIES,
  type Frequency,
  JOURNEYS,
  type Journey,
  RECURRENCE_STATUSES,
  RECURRING_CHARGE_STATUSES,
  type RecurrenceStatus,
  type RecurringChargeStatus,
  RETRY_POLICIES,
  type RetryPolicy,
} from '../domain/recurrence';
import { renderQrPngDataUrl } from '../payments/qr-png';
import type { AccountEnvironment } from '../providers/provider-adapter';
import type { Recurrence } from './recurrence.entity';
import type { RecurringCharge } from './recurring-charge.entity';
import { checkoutUrlOf } from '../payments/payment.view';

export class RecurrencePayerView {
  @ApiProperty({ example: '12345678909', description: 'CPF or CNPJ without punctuation.' }) document: string;
  @ApiProperty({ example: 'Ana Souza' }) name: string;
}

export class RecurrenceContractView {
  @ApiProperty({ example: 'plan-gold-4471', description: "The merchant's contract (the Pix API's `vinculo.contrato`)." }) id: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Gym membership, gold plan' }) description: string | null;
}

export class AuthorizationView {
  @ApiProperty({ example: '00020126…6304ABCD', description: "The authorization BR Code, the PSP's (`dadosQR.pixCopiaECola`)." }) copyPaste: string;
  @ApiProperty({ example: 'data:image/png;base64,iVBORw0KGgo…', description: 'QR image of copyPaste.' }) qrCodePng: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2026-11-27T12:00:00.000Z' }) expiresAt: string | null;
  @ApiProperty({
    format: 'uri',
    example: 'https://pix.example.com/pay/Xq3LmT8vR2kZpW9nB4cY7hJd',
    description: 'A page showing the payer this QR, to send them (docs/checkout.md). Public: its token is the only key.',
  })
  checkoutUrl: string;
}

/** A recurrence as every recurrence endpoint returns it in `data`, and as `recurrence.*` events carry it. */
export class RecurrenceView {
  @ApiProperty({ example: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({ enum: RECURRENCE_STATUSES, example: 'active' }) status: RecurrenceStatus;
  @ApiProperty({ example: 'subscription-881' }) externalId: string;
  @ApiProperty({ type: RecurrencePayerView }) payer: RecurrencePayerView;
  @ApiProperty({ type: RecurrenceContractView }) contract: RecurrenceContractView;
  @ApiProperty({ enum: FREQUENCIES, example: 'monthly' }) frequency: Frequency;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 89.9, description: 'Decimal reais: the fixed amount of each charge.' }) amount: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true, example: null, description: 'Decimal reais: the floor of a variable recurrence.' })
  minimumAmount: number | null;
  @ApiProperty({ example: '2026-12-05', description: 'Calendar day in Brasília.' }) startDate: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: null }) endDate: string | null;
  @ApiProperty({ enum: RETRY_POLICIES, example: 'three_in_seven_days' }) retryPolicy: RetryPolicy;
  @ApiProperty({ enum: JOURNEYS, example: 'qr' }) journey: Journey;
  @ApiPropertyOptional({ type: AuthorizationView, nullable: true, description: 'For the QR journeys while the payer has not answered.' })
  authorization: AuthorizationView | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: null,
    description:
      'The payment the composite QR also pays: an immediate charge (`qr_with_first_payment`) or a due-date charge (`qr_with_due_payment`), read at `GET /v1/payments/{id}`.',
  })
  firstPaymentId: string | null;
  @ApiPropertyOptional({ enum: CANCELLERS, nullable: true, example: null, description: 'Who cancelled it, once cancelled.' }) cancelledBy: Canceller | null;
  @ApiProperty({ example: 'efi' }) provider: string;
  @ApiProperty({ enum: ['sandbox', 'production'], example: 'production' }) environment: AccountEnvironment;
  @ApiProperty({ format: 'date-time', example: '2026-11-26T12:00:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-26T12:05:00.000Z' }) updatedAt: string;
}

export class ChargeAttemptView {
  @ApiProperty({ example: '2026-12-05', description: 'The settlement date of the attempt.' }) date: string;
  @ApiProperty({ enum: ATTEMPT_STATUSES, example: 'failed' }) status: AttemptStatus;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'AM04: insufficient funds' }) reason: string | null;
}

/** A recurring charge as the charge endpoints return it, and as `recurring_charge.*` events carry it. */
export class RecurringChargeView {
  @ApiProperty({ example: 'rch_8fLq2Wm5Tz9Xc3Vb7Nk1Rd4H' }) id: string;
  @ApiProperty({ example: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) recurrenceId: string;
  @ApiProperty({ example: 89.9, description: 'Decimal reais.' }) amount: number;
  @ApiProperty({ example: '2026-12-05', description: 'Calendar day in Brasília.' }) dueDate: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'December' }) description: string | null;
  @ApiProperty({ enum: RECURRING_CHARGE_STATUSES, example: 'paid' }) status: RecurringChargeStatus;
  @ApiProperty({ type: [ChargeAttemptView] }) attempts: ChargeAttemptView[];
  @ApiPropertyOptional({ type: String, nullable: true, example: 'E99999999202612051200abcdefghijk' }) endToEndId: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, example: '2026-12-05T12:00:00.000Z' }) paidAt: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: null, description: 'Why it failed, once failed.' }) failureReason: string | null;
  @ApiProperty({ example: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E', description: 'Pix transaction id.' }) txid: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-28T12:00:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-05T12:00:00.000Z' }) updatedAt: string;
}

export class RecurrencePageView {
  @ApiProperty({ type: [RecurrenceView] }) items: RecurrenceView[];
  @ApiPropertyOptional({ type: String, nullable: true }) next_cursor: string | null;
}

export class RecurringChargeListView {
  @ApiProperty({ type: [RecurringChargeView] }) items: RecurringChargeView[];
}

/** `publicBaseUrl`: where the authorization's checkout page is (PUBLIC_BASE_URL). */
export function toRecurrenceView(recurrence: Recurrence, publicBaseUrl: string): RecurrenceView {
  const showQr = recurrence.status === 'pending_authorization' && recurrence.authorizationCopyPaste !== null;
  return {
    id: recurrence.id,
    status: recurrence.status,
    externalId: recurrence.externalId,
    payer: { document: recurrence.payerDocument, name: recurrence.payerName },
    contract: { id: recurrence.contractId, description: recurrence.contractDescription },
    frequency: recurrence.frequency,
    amount: recurrence.amountCents === null ? null : centsToReais(recurrence.amountCents),
    minimumAmount: recurrence.minimumAmountCents === null ? null : centsToReais(recurrence.minimumAmountCents),
    startDate: recurrence.startDate,
    endDate: recurrence.endDate,
    retryPolicy: recurrence.retryPolicy,
    journey: recurrence.journey,
    authorization: showQr
      ? {
          copyPaste: recurrence.authorizationCopyPaste!,
          qrCodePng: renderQrPngDataUrl(recurrence.authorizationCopyPaste!),
          expiresAt: isoOrNull(recurrence.authorizationExpiresAt),
          checkoutUrl: checkoutUrlOf(publicBaseUrl, recurrence.checkoutToken),
        }
      : null,
    firstPaymentId: recurrence.firstPaymentId,
    cancelledBy: recurrence.cancelledBy,
    provider: recurrence.provider,
    environment: recurrence.environment,
    createdAt: recurrence.createdAt.toISOString(),
    updatedAt: recurrence.updatedAt.toISOString(),
  };
}

export function toRecurringChargeView(charge: RecurringCharge): RecurringChargeView {
  return {
    id: charge.id,
    recurrenceId: charge.recurrenceId,
    amount: centsToReais(charge.amountCents),
    dueDate: charge.dueDate,
    description: charge.description,
    // Merchants never see a pending charge (reads skip it; it has moved on before an answer or event
    // carries it): should one come here, it shows as what it becomes once the PSP has it.
    status: charge.status === 'pending' ? 'scheduled' : charge.status,
    attempts: charge.attempts.map((a) => ({ date: a.date, status: a.status, reason: a.reason })),
    endToEndId: charge.endToEndId,
    paidAt: isoOrNull(charge.paidAt),
    failureReason: charge.failureReason,
    txid: charge.txid,
    createdAt: charge.createdAt.toISOString(),
    updatedAt: charge.updatedAt.toISOString(),
  };
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { isoOrNull } from '../common/dates';
import { PaymentDeliveryView } from '../deliveries/dto/delivery-history.view';
import { type BatchCounts, countsOf } from './batch-plan';
import { BATCH_ITEM_STATUSES, BATCH_STATUSES, type BatchItemStatus, type BatchStatus, type PaymentBatch, type PaymentBatchItem } from './payment-batch.entity';

export class PaymentBatchCountsView {
  @ApiProperty({ example: 2, description: 'Items whose payment was created.' }) created: number;
  @ApiProperty({ example: 1, description: 'Items that could not be created (see their `error`).' }) failed: number;
  @ApiProperty({ example: 0, description: 'Items still being made.' }) pending: number;
}

export class PaymentBatchItemErrorView {
  @ApiProperty({
    example: 'PAYMENT_CREATE_FAILED',
    description:
      'An error code of the API: `PAYMENT_CREATE_FAILED` (the PSP refused the charge, or kept failing), `VALIDATION_ERROR` (its terms no longer hold, a due date passed before it was made), ' +
      '`IDEMPOTENCY_KEY_REUSED`, `INTERNAL_ERROR`.',
  })
  code: string;
  @ApiProperty({
    example: 'The PSP refused the charge: CHARGE_REFUSED: the payer’s document is not accepted.',
    description: 'What went wrong, with the PSP’s `problema` where it gave one.',
  })
  message: string;
}

export class PaymentBatchItemView {
  @ApiProperty({ example: 0, description: 'The position of the payment in the request’s `payments`, from 0.' }) index: number;
  @ApiProperty({ example: 'invoice-2026-12-0001' }) externalId: string;
  @ApiPropertyOptional({ example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: 'The payment made (`GET /v1/payments/{id}`), once `created`.' }) paymentId?: string;
  @ApiProperty({ enum: BATCH_ITEM_STATUSES, example: 'created' }) status: BatchItemStatus;
  @ApiPropertyOptional({ type: PaymentBatchItemErrorView, description: 'Why it could not be created, once `failed`.' }) error?: PaymentBatchItemErrorView;
}

/** A batch without its items: what a list and `payment_batch.completed` carry. */
export class PaymentBatchSummaryView {
  @ApiProperty({ example: 'bat_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) id: string;
  @ApiProperty({ example: 'Mensalidades de dezembro' }) description: string;
  @ApiProperty({ enum: BATCH_STATUSES, example: 'completed', description: '`processing` while any item is `pending`; `completed` once every item is `created` or `failed`.' })
  status: BatchStatus;
  @ApiProperty({ type: PaymentBatchCountsView, description: 'Its items by status, counted from the items.' }) counts: PaymentBatchCountsView;
  @ApiProperty({ format: 'date-time', example: '2026-11-26T12:00:00.000Z' }) createdAt: string;
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-26T12:00:04.000Z',
    description: 'When its last item settled; null while processing.',
  })
  completedAt: string | null;
}

/** `data` of `POST /v1/payment-batches` and `GET /v1/payment-batches/{id}`. */
export class PaymentBatchView extends PaymentBatchSummaryView {
  @ApiProperty({ type: [PaymentBatchItemView], description: 'One per payment asked for, in the request’s order.' }) items: PaymentBatchItemView[];
}

export class PaymentBatchPageView {
  @ApiProperty({ type: [PaymentBatchSummaryView] }) items: PaymentBatchSummaryView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}

/** A batch as the admin API lists it: the merchant's view, whose it is, and its provider. */
export class AdminPaymentBatchView extends PaymentBatchSummaryView {
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) merchant_id: string;
  @ApiProperty({ example: 'efi', description: 'The provider of the first account on its route that took due-date charges when it was accepted.' }) provider: string;
}

export class AdminPaymentBatchPageView {
  @ApiProperty({ type: [AdminPaymentBatchView] }) items: AdminPaymentBatchView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}

/** `GET /admin/api/payment-batches/{id}`: the batch with its items and its `payment_batch.completed` delivery. */
export class AdminPaymentBatchDetailView extends AdminPaymentBatchView {
  @ApiProperty({ type: [PaymentBatchItemView], description: 'One per payment asked for, in the request’s order.' }) items: PaymentBatchItemView[];
  @ApiProperty({ type: [PaymentDeliveryView], description: 'Its `payment_batch.completed` forwarded to the merchant, with every HTTP attempt (none while processing).' })
  deliveries: PaymentDeliveryView[];
}

/** An item as the API shows it: `paymentId` once created, `error` once failed, neither while pending. */
export function toItemView(item: Pick<PaymentBatchItem, 'index' | 'externalId' | 'status' | 'paymentId' | 'errorCode' | 'errorMessage'>): PaymentBatchItemView {
  return {
    index: item.index,
    externalId: item.externalId,
    ...(item.status === 'created' && item.paymentId ? { paymentId: item.paymentId } : {}),
    status: item.status,
    ...(item.status === 'failed' ? { error: { code: item.errorCode ?? 'INTERNAL_ERROR', message: item.errorMessage ?? '' } } : {}),
  };
}

export function toSummaryView(batch: PaymentBatch, counts: BatchCounts): PaymentBatchSummaryView {
  return {
    id: batch.id,
    description: batch.description,
    status: batch.status,
    counts: { ...counts },
    createdAt: batch.createdAt.toISOString(),
    completedAt: isoOrNull(batch.completedAt),
  };
}

/** The whole batch, its counts read from the items it shows. */
export function toBatchView(batch: PaymentBatch, items: Parameters<typeof toItemView>[0][]): PaymentBatchView {
  const { createdAt, completedAt, ...summary } = toSummaryView(batch, countsOf(items));
  return { ...summary, items: items.map(toItemView), createdAt, completedAt };
}

export function toAdminView(batch: PaymentBatch, counts: BatchCounts): AdminPaymentBatchView {
  return { ...toSummaryView(batch, counts), merchant_id: batch.merchantId, provider: batch.provider };
}

import { EventBody, type EventDoc } from '../deliveries/event-body';
import { COMPLETED_BATCH_SUMMARY_EXAMPLE } from './payment-batch-examples';
import { PaymentBatchSummaryView } from './payment-batch.view';

/** The event a batch sends its merchant, once: when its last item settled. */
export const PAYMENT_BATCH_COMPLETED = 'payment_batch.completed';
export type PaymentBatchEventType = typeof PAYMENT_BATCH_COMPLETED;

/*
 * Its `data` is the batch without its items (up to 1,000 of them would make a body many merchants'
 * frameworks refuse): the counts say what happened, `GET /v1/payment-batches/{id}` lists each item.
 */
export class PaymentBatchCompletedEvent extends EventBody(
  PAYMENT_BATCH_COMPLETED,
  PaymentBatchSummaryView,
  'The batch as it completed, without its items: read them with `GET /v1/payment-batches/{id}`.',
) {}

export const PAYMENT_BATCH_EVENT_DOCS: Record<PaymentBatchEventType, EventDoc> = {
  [PAYMENT_BATCH_COMPLETED]: {
    schema: PaymentBatchCompletedEvent,
    summary: 'A batch of due-date charges completed',
    description:
      'Every item of a batch (`POST /v1/payment-batches`) settled: each payment was created or failed. `data.counts` says how many of each; ' +
      '`GET /v1/payment-batches/{id}` gives each item with its `paymentId` or `error`. Sent once per batch.',
    example: { event: PAYMENT_BATCH_COMPLETED, id: 'evt_4Hc7Pl1Kw8Sy3Qa6Um0Jb2Ve', created_at: '2026-11-26T12:00:04.000Z', data: COMPLETED_BATCH_SUMMARY_EXAMPLE },
  },
};

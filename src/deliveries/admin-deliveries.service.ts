import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../domain/clock';
import { isoOrNull } from '../common/dates';
import { AppError } from '../common/errors/app-error';
import { decodeCursor, toPage } from '../common/http/cursor';
import { hasIdShape, newId } from '../common/ids';
import { DeliverySender } from './delivery-sender';
import { DELIVERY_NUDGE, type DeliveryNudge } from './delivery-nudge';
import { type DeliveryDetailView, type DeliveryPage, type DeliveryView, type TestEventResultView, toAnswerView } from './dto/delivery.view';
import { WebhookDeliveryAttemptRepository } from './webhook-delivery-attempt.repository';
import type { ListDeliveriesQuery } from './dto/list-deliveries.query';
import { DeliveryWithMerchant, WebhookDeliveryRepository } from './webhook-delivery.repository';
import type { EventBodyOf } from './event-body';
import { TEST_EVENT_TYPE, type TestPingData } from './test-event-body';

function toView({ delivery, merchant }: DeliveryWithMerchant): DeliveryView {
  return {
    id: delivery.id,
    status: delivery.status,
    event_type: delivery.eventType,
    event_id: delivery.eventId,
    payment_id: delivery.paymentId,
    recurrence_id: delivery.recurrenceId,
    batch_id: delivery.batchId,
    merchant_id: delivery.merchantId,
    merchant_name: merchant.name,
    webhook_url: merchant.webhookUrl,
    attempts: delivery.attempts,
    next_attempt_at: delivery.nextAttemptAt.toISOString(),
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    delivered_at: isoOrNull(delivery.deliveredAt),
    request_id: delivery.requestId,
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
  };
}

/** The operator's view of forwards: what is stuck or failed, and "send it again". */
@Injectable()
export class AdminDeliveriesService {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly attempts: WebhookDeliveryAttemptRepository,
    private readonly sender: DeliverySender,
    private readonly clock: Clock,
    @Inject(DELIVERY_NUDGE) private readonly worker: DeliveryNudge,
  ) {}

  /** Newest first, one keyset page at a time. */
  async list(query: ListDeliveriesQuery): Promise<DeliveryPage> {
    const limit = query.limit ?? 50;
    const rows = await this.deliveries.listPageWithMerchant({
      status: query.status,
      merchantId: query.merchant_id,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
      limit,
    });
    return toPage(rows, limit, toView);
  }

  /**
   * Queues one more attempt now, whatever the delivery's state; its attempt history stays. A
   * delivery that had used up its retries is failed again if this attempt fails too. An attempt
   * already in flight keeps its lease and is recorded as usual.
   */
  async redeliver(id: string): Promise<DeliveryView> {
    const requeued = hasIdShape(id, 'dlv') && (await this.deliveries.requeue(id, this.clock.now()));
    if (!requeued) throw AppError.notFound('Delivery not found.');
    // Read before the worker is woken: the answer is the delivery as queued, not a race with its next attempt.
    const found = await this.deliveries.findWithMerchant(id);
    this.worker.nudge();
    if (!found) throw AppError.notFound('Delivery not found.');
    return toView(found);
  }

  /** One delivery with its body and every attempt's answer, oldest first. */
  async get(id: string): Promise<DeliveryDetailView> {
    const found = hasIdShape(id, 'dlv') ? await this.deliveries.findWithMerchant(id) : null;
    const sent = found && (await this.deliveries.findBody(id));
    if (!found || !sent) throw AppError.notFound('Delivery not found.');
    const attempts = await this.attempts.listForDeliveries([id]);
    return { ...toView(found), body: sent.body as Record<string, unknown>, attempt_history: attempts.map(toAnswerView) };
  }

  /**
   * Sends one signed `test.ping` to the merchant's webhook URL now, through the same sender as real
   * deliveries, and answers what the endpoint said. Nothing is stored: it is never retried and never
   * counted as a delivery or a failure.
   */
  async sendTestEvent(merchantId: string): Promise<TestEventResultView> {
    const merchant = hasIdShape(merchantId, 'mer') ? await this.deliveries.findMerchantTarget(merchantId) : null;
    if (!merchant) throw AppError.notFound('Merchant not found.');
    // The real time, not the Clock's: it is the signature's timestamp, which the merchant checks against its own clock.
    const sentAt = new Date();
    const id = newId('evt');
    // Checked against the schema the document gives it (test-event-body.ts).
    const body = {
      event: TEST_EVENT_TYPE,
      id,
      created_at: sentAt.toISOString(),
      data: { merchant_id: merchant.id, timestamp: sentAt.toISOString() },
    } satisfies EventBodyOf<typeof TEST_EVENT_TYPE, TestPingData>;
    const result = await this.sender.send(
      {
        id,
        eventType: TEST_EVENT_TYPE,
        requestId: randomUUID(),
        provider: 'gateway',
        body,
        webhookUrl: merchant.webhookUrl,
        webhookSigningSecretEnc: merchant.webhookSigningSecretEnc,
      },
      sentAt,
    );
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    return {
      id,
      body,
      url: merchant.webhookUrl,
      ok,
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
      error: result.error,
      response_excerpt: result.bodyExcerpt ?? null,
      sent_at: sentAt.toISOString(),
    };
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../domain/clock';
import { isoOrNull } from '../common/dates';
import { AppError } from '../common/errors/app-error';
import { decodeCursor, toPage } from '../common/http/cursor';
import { hasIdShape } from '../common/ids';
import { DELIVERY_NUDGE, type DeliveryNudge } from './delivery-nudge';
import type { DeliveryPage, DeliveryView } from './dto/delivery.view';
import type { ListDeliveriesQuery } from './dto/list-deliveries.query';
import { DeliveryWithMerchant, WebhookDeliveryRepository } from './webhook-delivery.repository';

function toView({ delivery, merchant }: DeliveryWithMerchant): DeliveryView {
  return {
    id: delivery.id,
    status: delivery.status,
    event_type: delivery.eventType,
    event_id: delivery.eventId,
    payment_id: delivery.paymentId,
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
}

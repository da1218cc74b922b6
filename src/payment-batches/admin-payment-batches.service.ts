import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { decodeCursor, type Page, toPage } from '../common/http/cursor';
import type { ProviderAnswer } from '../common/http/envelope';
import { hasIdShape } from '../common/ids';
import { toDeliveryView } from '../deliveries/dto/delivery-history.view';
import { toAnswerView } from '../deliveries/dto/delivery.view';
import { WebhookDeliveryAttemptRepository } from '../deliveries/webhook-delivery-attempt.repository';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { countsOf } from './batch-plan';
import type { ListAdminPaymentBatchesQuery } from './dto/list-payment-batches.query';
import { PaymentBatchItemRepository } from './payment-batch-item.repository';
import { PaymentBatchRepository } from './payment-batch.repository';
import { type AdminPaymentBatchDetailView, type AdminPaymentBatchView, toAdminView, toItemView } from './payment-batch.view';

/** The operator's side of batches (the dashboard's batch page): every merchant's, one with its items and its delivery. */
@Injectable()
export class AdminPaymentBatchesService {
  constructor(
    private readonly batches: PaymentBatchRepository,
    private readonly items: PaymentBatchItemRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly attempts: WebhookDeliveryAttemptRepository,
  ) {}

  /** Newest first, across merchants, one keyset page at a time. */
  async list(query: ListAdminPaymentBatchesQuery): Promise<Page<AdminPaymentBatchView>> {
    const limit = query.limit ?? 50;
    const rows = await this.batches.listPage({ merchantId: query.merchant_id, status: query.status, after: query.cursor ? decodeCursor(query.cursor) : undefined, limit });
    return toPage(rows, limit, ({ batch, counts }) => toAdminView(batch, counts));
  }

  async detail(id: string): Promise<ProviderAnswer<AdminPaymentBatchDetailView>> {
    const batch = hasIdShape(id, 'bat') ? await this.batches.findById(id) : null;
    if (!batch) throw AppError.notFound('Payment batch not found.');
    const [items, deliveries] = await Promise.all([this.items.listForBatch(batch.id), this.deliveries.listForBatch(batch.id)]);
    const attempts = await this.attempts.listForDeliveries(deliveries.map((d) => d.id));
    return {
      provider: batch.provider,
      data: {
        ...toAdminView(batch, countsOf(items)),
        items: items.map(toItemView),
        deliveries: deliveries.map((delivery) => toDeliveryView(delivery, attempts.filter((a) => a.deliveryId === delivery.id).map(toAnswerView))),
      },
    };
  }
}

import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MerchantsModule } from '../merchants/merchants.module';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { TransportModule } from '../providers/transport/transport.module';
import { DELIVERY_NUDGE } from './delivery-nudge';
import { AdminDeliveriesController, AdminTestEventController } from './admin-deliveries.controller';
import { AdminDeliveriesService } from './admin-deliveries.service';
import { DeliverySender } from './delivery-sender';
import { DeliveryWorker } from './delivery-worker';
import { WebhookDeliveryAttempt } from './webhook-delivery-attempt.entity';
import { WebhookDeliveryAttemptRepository } from './webhook-delivery-attempt.repository';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';

/**
 * Forwards to merchants: the worker that sends queued deliveries, and the admin's list, detail,
 * redeliver and test event. The webhooks module imports it for DELIVERY_NUDGE: intake injects the nudge
 * optionally, so without that import it would silently fall back to polling. It also gives
 * /metrics its delivery backlog, so the metrics module reads no feature's table. Forwards go out
 * through the gateway's one OutboundTransport (TransportModule).
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookDelivery, WebhookDeliveryAttempt]), MerchantsModule, TransportModule],
  controllers: [AdminDeliveriesController, AdminTestEventController],
  providers: [
    WebhookDeliveryRepository,
    WebhookDeliveryAttemptRepository,
    DeliverySender,
    DeliveryWorker,
    AdminDeliveriesService,
    { provide: DELIVERY_NUDGE, useExisting: DeliveryWorker },
  ],
  exports: [DELIVERY_NUDGE, WebhookDeliveryRepository, WebhookDeliveryAttemptRepository],
})
export class DeliveriesModule implements OnModuleInit {
  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  onModuleInit(): void {
    this.metrics.setDeliveryBacklogSource(() => this.deliveries.backlog());
  }
}

import { Module } from '@nestjs/common';
import { MerchantsModule } from '../merchants/merchants.module';
import { DELIVERY_NUDGE } from '../webhooks/delivery-nudge';
import { AdminDeliveriesController } from './admin-deliveries.controller';
import { AdminDeliveriesService } from './admin-deliveries.service';
import { DeliveryStore } from './delivery-store';
import { DeliveryWorker } from './delivery-worker';

/**
 * Forwards to merchants: the worker that sends queued deliveries, and the admin's list and
 * redeliver. The webhooks module imports it for DELIVERY_NUDGE: intake injects the nudge
 * optionally, so without that import it would silently fall back to polling.
 */
@Module({
  imports: [MerchantsModule],
  controllers: [AdminDeliveriesController],
  providers: [DeliveryStore, DeliveryWorker, AdminDeliveriesService, { provide: DELIVERY_NUDGE, useExisting: DeliveryWorker }],
  exports: [DELIVERY_NUDGE],
})
export class DeliveriesModule {}

import { Global, Module } from '@nestjs/common';
import { DELIVERY_NUDGE } from '../webhooks/delivery-nudge';
import { AdminDeliveriesController } from './admin-deliveries.controller';
import { AdminDeliveriesService } from './admin-deliveries.service';
import { DeliveryStore } from './delivery-store';
import { DeliveryWorker } from './delivery-worker';

/**
 * Forwards to merchants: the worker that sends queued deliveries, and the admin's list and
 * redeliver. Global so DELIVERY_NUDGE reaches intake (which injects it optionally and would
 * otherwise silently fall back to polling) without the webhooks module importing this one.
 */
@Global()
@Module({
  controllers: [AdminDeliveriesController],
  providers: [DeliveryStore, DeliveryWorker, AdminDeliveriesService, { provide: DELIVERY_NUDGE, useExisting: DeliveryWorker }],
  exports: [DELIVERY_NUDGE],
})
export class DeliveriesModule {}

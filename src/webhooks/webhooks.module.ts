import { Module } from '@nestjs/common';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { ProvidersModule } from '../providers/providers.module';
import { AdminPaymentEventsController } from './admin-payment-events.controller';
import { AdminPaymentEventsService } from './admin-payment-events.service';
import { PaymentEventsService } from './payment-events.service';
import { WebhookIntakeService } from './webhook-intake.service';
import { WebhooksController } from './webhooks.controller';

/** Provider events in: intake, the apply service (shared with reconciliation) and the admin's payment detail. */
@Module({
  imports: [ProvidersModule, DeliveriesModule],
  controllers: [WebhooksController, AdminPaymentEventsController],
  providers: [PaymentEventsService, WebhookIntakeService, AdminPaymentEventsService],
  exports: [PaymentEventsService],
})
export class WebhooksModule {}

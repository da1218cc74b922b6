import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { PaymentsModule } from '../payments/payments.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { AdminPaymentEventsController } from './admin-payment-events.controller';
import { AdminPaymentEventsService } from './admin-payment-events.service';
import { PaymentEvent } from './payment-event.entity';
import { PaymentEventRepository } from './payment-event.repository';
import { PaymentEventsService } from './payment-events.service';
import { EventWriter } from './event-writer';
import { RefundEventsService } from './refund-events.service';
import { WebhookIntakeService } from './webhook-intake.service';
import { WebhooksController } from './webhooks.controller';

/** Provider events in: intake, the apply service (shared with reconciliation) and the admin's payment detail. */
@Module({
  imports: [TypeOrmModule.forFeature([PaymentEvent]), ProvidersModule, ProviderAccountsModule, PaymentsModule, DeliveriesModule],
  controllers: [WebhooksController, AdminPaymentEventsController],
  providers: [PaymentEventRepository, EventWriter, RefundEventsService, PaymentEventsService, WebhookIntakeService, AdminPaymentEventsService],
  exports: [PaymentEventsService],
})
export class WebhooksModule {}

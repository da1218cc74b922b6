import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { WebhookIntakeService } from './webhook-intake.service';
import { WebhooksController } from './webhooks.controller';

/**
 * Provider callbacks in (docs/architecture.md, A provider callback): the intake verifies what a
 * provider posts through its adapter and hands the confirmed reports to the payment's lifecycle.
 */
@Module({
  imports: [ProvidersModule, ProviderAccountsModule, PaymentsModule],
  controllers: [WebhooksController],
  providers: [WebhookIntakeService],
})
export class WebhooksModule {}

import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PaymentsModule } from '../payments/payments.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AdminRefundsController } from './admin-refunds.controller';
import { CancelService } from './cancel.service';
import { RefundReconciliation } from './refund-reconciliation';
import { RefundsController } from './refunds.controller';
import { RefundsService } from './refunds.service';

/** Refunds and cancellation (docs/api.md, Refunds): the merchant API, the dashboard's buttons, and the reconciliation of pending refunds. */
@Module({
  imports: [PaymentsModule, IdempotencyModule, ProvidersModule, ProviderAccountsModule, WebhooksModule],
  controllers: [RefundsController, AdminRefundsController],
  providers: [RefundsService, CancelService, RefundReconciliation],
  exports: [RefundsService, RefundReconciliation],
})
export class RefundsModule {}

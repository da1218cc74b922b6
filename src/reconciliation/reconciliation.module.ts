import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { ReconciliationJob } from './reconciliation.job';
import { ReconciliationService } from './reconciliation.service';

@Module({
  imports: [PaymentsModule, ProvidersModule, ProviderAccountsModule, WebhooksModule],
  providers: [ReconciliationService, ReconciliationJob],
  exports: [ReconciliationService],
})
export class ReconciliationModule {}

import { Module } from '@nestjs/common';
import { PaymentsModule } from '../payments/payments.module';
import { ProvidersModule } from '../providers/providers.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { ReconciliationJob } from './reconciliation.job';
import { ReconciliationService } from './reconciliation.service';

@Module({
  imports: [PaymentsModule, ProvidersModule, WebhooksModule],
  providers: [ReconciliationService, ReconciliationJob],
  exports: [ReconciliationService],
})
export class ReconciliationModule {}

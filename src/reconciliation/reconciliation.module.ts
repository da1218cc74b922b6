import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { ReconciliationJob } from './reconciliation.job';
import { ReconciliationService } from './reconciliation.service';

@Module({
  imports: [WebhooksModule],
  providers: [ReconciliationService, ReconciliationJob],
  exports: [ReconciliationService],
})
export class ReconciliationModule {}

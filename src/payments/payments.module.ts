import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { AdminPaymentsController } from './admin-payments.controller';
import { AdminPaymentsService } from './admin-payments.service';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';

@Module({
  imports: [IdempotencyModule],
  controllers: [PaymentsController, AdminPaymentsController],
  providers: [PaymentsService, AdminPaymentsService],
  exports: [PaymentsService],
})
export class PaymentsModule {}

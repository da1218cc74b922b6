import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PaymentsModule } from '../payments/payments.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { AdminPaymentBatchesController } from './admin-payment-batches.controller';
import { AdminPaymentBatchesService } from './admin-payment-batches.service';
import { PaymentBatch, PaymentBatchItem } from './payment-batch.entity';
import { PaymentBatchItemRepository } from './payment-batch-item.repository';
import { PaymentBatchProcessor } from './payment-batch.processor';
import { PaymentBatchRepository } from './payment-batch.repository';
import { PaymentBatchWorker } from './payment-batch.worker';
import { PaymentBatchesController } from './payment-batches.controller';
import { PaymentBatchesService } from './payment-batches.service';

/** Batches of due-date charges (docs/api.md, Payment batches): the merchant API, the background worker, the operator's routes. */
@Module({
  imports: [TypeOrmModule.forFeature([PaymentBatch, PaymentBatchItem]), IdempotencyModule, PaymentsModule, ProviderAccountsModule, DeliveriesModule],
  controllers: [PaymentBatchesController, AdminPaymentBatchesController],
  providers: [PaymentBatchRepository, PaymentBatchItemRepository, PaymentBatchProcessor, PaymentBatchWorker, PaymentBatchesService, AdminPaymentBatchesService],
  exports: [PaymentBatchWorker],
})
export class PaymentBatchesModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MerchantsModule } from '../merchants/merchants.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { AdminPaymentsController } from './admin-payments.controller';
import { AdminPaymentsService } from './admin-payments.service';
import { AdminTestPaymentsController } from './admin-test-payments.controller';
import { AdminTestPaymentsService } from './admin-test-payments.service';
import { Payment } from './payment.entity';
import { PaymentRepository } from './payment.repository';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { PaymentAttempt } from './routing/payment-attempt.entity';
import { PaymentAttemptRepository } from './routing/payment-attempt.repository';
import { OrphanCanceller } from './routing/orphan-canceller';
import { CircuitMetrics } from './routing/circuit-metrics';
import { Refund } from './refunds/refund.entity';
import { RefundRepository } from './refunds/refund.repository';

@Module({
  imports: [TypeOrmModule.forFeature([Payment, PaymentAttempt, Refund]), IdempotencyModule, MerchantsModule, ProvidersModule, ProviderAccountsModule],
  controllers: [PaymentsController, AdminPaymentsController, AdminTestPaymentsController],
  providers: [PaymentRepository, PaymentAttemptRepository, RefundRepository, PaymentsService, AdminPaymentsService, AdminTestPaymentsService, OrphanCanceller, CircuitMetrics],
  exports: [PaymentRepository, PaymentAttemptRepository, RefundRepository, PaymentsService, OrphanCanceller],
})
export class PaymentsModule {}

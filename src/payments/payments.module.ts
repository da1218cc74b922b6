import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MerchantsModule } from '../merchants/merchants.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { AdminPaymentsController } from './admin-payments.controller';
import { AdminPaymentsService } from './admin-payments.service';
import { Payment } from './payment.entity';
import { PaymentRepository } from './payment.repository';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';

@Module({
  imports: [TypeOrmModule.forFeature([Payment]), IdempotencyModule, MerchantsModule, ProvidersModule, ProviderAccountsModule],
  controllers: [PaymentsController, AdminPaymentsController],
  providers: [PaymentRepository, PaymentsService, AdminPaymentsService],
  exports: [PaymentRepository, PaymentsService],
})
export class PaymentsModule {}

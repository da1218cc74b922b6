import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Payment } from '../payments/payment.entity';
import { PaymentsModule } from '../payments/payments.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { AdminInvariantChecksController } from './admin-invariant-checks.controller';
import { InvariantCheck, InvariantMismatch } from './invariant-check.entity';
import { InvariantCheckRepository } from './invariant-check.repository';
import { MoneyInvariantJob } from './money-invariant.job';
import { MoneyInvariantService } from './money-invariant.service';
import { PaymentMoneyRepository } from './payment-money.repository';
import { ReconciliationJob } from './reconciliation.job';
import { ReconciliationService } from './reconciliation.service';

@Module({
  imports: [TypeOrmModule.forFeature([InvariantCheck, InvariantMismatch, Payment]), PaymentsModule, ProvidersModule, ProviderAccountsModule, WebhooksModule],
  controllers: [AdminInvariantChecksController],
  providers: [ReconciliationService, ReconciliationJob, InvariantCheckRepository, PaymentMoneyRepository, MoneyInvariantService, MoneyInvariantJob],
  exports: [ReconciliationService],
})
export class ReconciliationModule {}

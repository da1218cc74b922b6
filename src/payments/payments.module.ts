import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MerchantsModule } from '../merchants/merchants.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { AdminPaymentEventsController } from './admin/admin-payment-events.controller';
import { AdminPaymentEventsService } from './admin/admin-payment-events.service';
import { AdminPaymentsController } from './admin/admin-payments.controller';
import { AdminPaymentsService } from './admin/admin-payments.service';
import { AdminTestPaymentsController } from './admin/admin-test-payments.controller';
import { AdminTestPaymentsService } from './admin/admin-test-payments.service';
import { CancelService } from './cancel.service';
import { AdminInvariantChecksController } from './invariant/admin-invariant-checks.controller';
import { InvariantCheck, InvariantMismatch } from './invariant/invariant-check.entity';
import { InvariantCheckRepository } from './invariant/invariant-check.repository';
import { MoneyInvariantJob } from './invariant/money-invariant.job';
import { MoneyInvariantService } from './invariant/money-invariant.service';
import { PaymentMoneyRepository } from './invariant/payment-money.repository';
import { EventWriter } from './lifecycle/event-writer';
import { PaymentEvent } from './lifecycle/payment-event.entity';
import { PaymentEventRepository } from './lifecycle/payment-event.repository';
import { PaymentEventsService } from './lifecycle/payment-events.service';
import { Payment } from './payment.entity';
import { ReconciliationService } from './payment-reconciliation.service';
import { PaymentRepository } from './payment.repository';
import { PaymentsController } from './payments.controller';
import { PaymentsService } from './payments.service';
import { PaymentViews } from './payment-views';
import { UpdateDueChargeService } from './due/update-due-charge.service';
import { AdminRefundsController } from './refunds/admin-refunds.controller';
import { RefundEventsService } from './refunds/refund-events.service';
import { RefundReconciliation } from './refunds/refund-reconciliation';
import { Refund } from './refunds/refund.entity';
import { RefundRepository } from './refunds/refund.repository';
import { RefundsController } from './refunds/refunds.controller';
import { RefundsService } from './refunds/refunds.service';
import { CircuitMetrics } from './routing/circuit-metrics';
import { OrphanCanceller } from './routing/orphan-canceller';
import { PaymentAttempt } from './routing/payment-attempt.entity';
import { PaymentAttemptRepository } from './routing/payment-attempt.repository';

/**
 * The payment, one feature (docs/architecture.md, Layout): create, read, list and cancel; routing
 * across the merchant's accounts; the lifecycle that applies a provider's reports (callbacks,
 * reconciliation, the answers to the gateway's own calls) to payments and refunds and writes the
 * merchant's deliveries with it; refunds; the reconciliation of payments and refunds and the
 * money invariant check; and the operator's payment routes.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Payment, PaymentAttempt, Refund, PaymentEvent, InvariantCheck, InvariantMismatch]),
    IdempotencyModule,
    MerchantsModule,
    ProvidersModule,
    ProviderAccountsModule,
    DeliveriesModule,
  ],
  controllers: [
    PaymentsController,
    RefundsController,
    AdminPaymentsController,
    AdminTestPaymentsController,
    AdminPaymentEventsController,
    AdminRefundsController,
    AdminInvariantChecksController,
  ],
  providers: [
    PaymentRepository,
    PaymentAttemptRepository,
    RefundRepository,
    PaymentEventRepository,
    PaymentsService,
    CancelService,
    AdminPaymentsService,
    AdminTestPaymentsService,
    AdminPaymentEventsService,
    OrphanCanceller,
    CircuitMetrics,
    EventWriter,
    RefundEventsService,
    PaymentEventsService,
    RefundsService,
    RefundReconciliation,
    ReconciliationService,
    InvariantCheckRepository,
    PaymentMoneyRepository,
    MoneyInvariantService,
    MoneyInvariantJob,
    PaymentViews,
    UpdateDueChargeService,
  ],
  exports: [
    PaymentRepository,
    PaymentAttemptRepository,
    RefundRepository,
    PaymentsService,
    OrphanCanceller,
    PaymentEventsService,
    RefundsService,
    RefundReconciliation,
    ReconciliationService,
    PaymentViews,
  ],
})
export class PaymentsModule {}

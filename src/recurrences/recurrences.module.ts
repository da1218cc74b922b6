import { Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { MetricsModule } from '../metrics/metrics.module';
import { PaymentsModule } from '../payments/payments.module';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { AdminRecurrencesController } from './admin-recurrences.controller';
import { AdminRecurrencesService } from './admin-recurrences.service';
import { RecurrenceEvent } from './recurrence-event.entity';
import { RecurrenceEventRepository } from './recurrence-event.repository';
import { RecurrenceEventsService } from './recurrence-events.service';
import { RecurrenceReconciliation } from './recurrence-reconciliation';
import { Recurrence } from './recurrence.entity';
import { RecurrenceRepository } from './recurrence.repository';
import { RecurrencesController } from './recurrences.controller';
import { RecurrencesService } from './recurrences.service';
import { RecurringAccounts } from './recurring-accounts';
import { RecurringChargesService } from './recurring-charges.service';
import { RecurringCallbacksController } from './recurring-callbacks.controller';
import { RecurringCharge } from './recurring-charge.entity';
import { RecurringChargeRepository } from './recurring-charge.repository';
import { RecurringIntakeService } from './recurring-intake.service';

/** Pix Automático (docs/recurrences.md): the merchant API, the callbacks, the events and their reconciliation. */
@Module({
  imports: [TypeOrmModule.forFeature([Recurrence, RecurringCharge, RecurrenceEvent]), IdempotencyModule, PaymentsModule, ProviderAccountsModule, MetricsModule, DeliveriesModule],
  controllers: [RecurrencesController, RecurringCallbacksController, AdminRecurrencesController],
  providers: [
    RecurrenceRepository,
    RecurringChargeRepository,
    RecurrenceEventRepository,
    RecurrenceEventsService,
    RecurrencesService,
    RecurringChargesService,
    RecurringAccounts,
    RecurringIntakeService,
    RecurrenceReconciliation,
    AdminRecurrencesService,
  ],
  exports: [RecurrenceRepository, RecurringChargeRepository, RecurrenceEventRepository, RecurrencesService, RecurrenceEventsService],
})
export class RecurrencesModule implements OnModuleInit {
  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly recurrences: RecurrenceRepository,
  ) {}

  onModuleInit(): void {
    this.metrics.setRecurrenceCountSource(() => this.recurrences.countByStatus());
  }
}

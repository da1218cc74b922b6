import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { Clock } from './domain/clock';
import { CryptoModule } from './common/crypto/crypto.module';
import { ReconciliationModule } from './common/jobs/reconciliation';
import { ShutdownModule } from './common/lifecycle/shutdown-progress';
import { withLogDestination } from './common/logging/log-destination';
import { pinoHttpParams } from './common/logging/logger-options';
import { AllExceptionsFilter } from './common/http/exception.filter';
import { AppValidationPipe } from './common/http/validation.pipe';
import { ThrottleModule } from './common/throttle/throttle.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DatabaseModule } from './database/database.module';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { HealthModule } from './health/health.module';
import { AuthModule } from './auth/auth.module';
import { CheckoutModule } from './checkout/checkout.module';
import { MerchantAuthService } from './merchants/merchant-auth.service';
import { MerchantsModule } from './merchants/merchants.module';
import { MetricsModule } from './metrics/metrics.module';
import { PaymentBatchesModule } from './payment-batches/payment-batches.module';
import { PaymentLinksModule } from './payment-links/payment-links.module';
import { PaymentsModule } from './payments/payments.module';
import { ProviderAccountsModule } from './providers/provider-accounts/provider-accounts.module';
import { ProviderCatalogueModule } from './providers/catalogue/provider-catalogue.module';
import { ProvidersModule } from './providers/providers.module';
import { RecurrencesModule } from './recurrences/recurrences.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, clock?: Clock): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, clock),
        LoggerModule.forRoot({ pinoHttp: withLogDestination(pinoHttpParams(config)) }),
        ShutdownModule,
        ThrottleModule,
        CryptoModule,
        DatabaseModule,
        HealthModule,
        MetricsModule,
        MerchantsModule,
        AuthModule.forRoot({ imports: [MerchantsModule], merchantKeys: MerchantAuthService }),
        ProvidersModule,
        ProviderAccountsModule,
        ProviderCatalogueModule,
        PaymentsModule,
        ReconciliationModule,
        WebhooksModule,
        RecurrencesModule,
        PaymentBatchesModule,
        PaymentLinksModule,
        DeliveriesModule,
        DashboardModule,
        CheckoutModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useClass: AppValidationPipe },
      ],
    };
  }
}

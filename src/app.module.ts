import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { CryptoModule } from './common/crypto/crypto.module';
import { EnvelopeInterceptor } from './common/http/envelope.interceptor';
import { AllExceptionsFilter } from './common/http/exception.filter';
import { AppValidationPipe } from './common/http/validation.pipe';
import { ThrottleModule } from './common/throttle/throttle.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DatabaseModule } from './database/database.module';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { HealthModule } from './health/health.module';
import { MerchantsModule } from './merchants/merchants.module';
import { PaymentsModule } from './payments/payments.module';
import { ProvidersModule } from './providers/providers.module';
import { ReconciliationModule } from './reconciliation/reconciliation.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** Header values never written to logs. */
const REDACTED_PATHS = ['req.headers["x-merchant-key"]', 'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
            genReqId: (req) => (req as unknown as { id: string }).id,
            customProps: (req) => ({ request_id: (req as unknown as { id: string }).id }),
            autoLogging: { ignore: (req) => req.url === '/health' },
            quietReqLogger: true,
          },
        }),
        ThrottleModule,
        CryptoModule,
        DatabaseModule,
        HealthModule,
        MerchantsModule,
        ProvidersModule,
        PaymentsModule,
        WebhooksModule,
        DeliveriesModule,
        ReconciliationModule,
        DashboardModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
        { provide: APP_PIPE, useClass: AppValidationPipe },
      ],
    };
  }
}

import { Global, Module } from '@nestjs/common';
import { GatewayMetrics } from './gateway-metrics';
import { MetricsController } from './metrics.controller';

/** GET /metrics and the series behind it. Global: payments, providers, intake and deliveries record into it. */
@Global()
@Module({ controllers: [MetricsController], providers: [GatewayMetrics], exports: [GatewayMetrics] })
export class MetricsModule {}

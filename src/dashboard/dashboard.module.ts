import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ADMIN_SESSION_VERIFIER } from '../auth/admin-auth.guard';
import { DeliveriesModule } from '../deliveries/deliveries.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { PaymentsModule } from '../payments/payments.module';
import { AdminSession } from './admin-session.entity';
import { AdminSessionRepository } from './admin-session.repository';
import { AdminSessionController } from './admin-session.controller';
import { AdminSessionService } from './admin-session.service';
import { DashboardStatsController } from './dashboard-stats.controller';
import { DashboardStatsService } from './dashboard-stats.service';

/**
 * The dashboard's server side: sign-in sessions and the overview numbers. Global because the admin
 * guard, on the admin controllers of every feature, takes the session verifier from here, and takes
 * it optionally: a feature that forgot to import this module would silently refuse dashboard
 * sessions. The overview reads the payments, deliveries and idempotency tables through their
 * modules' repositories. The page itself is served by registerDashboard (dashboard-static.ts).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AdminSession]), PaymentsModule, DeliveriesModule, IdempotencyModule],
  controllers: [AdminSessionController, DashboardStatsController],
  providers: [AdminSessionRepository, AdminSessionService, DashboardStatsService, { provide: ADMIN_SESSION_VERIFIER, useExisting: AdminSessionService }],
  exports: [ADMIN_SESSION_VERIFIER, AdminSessionRepository],
})
export class DashboardModule {}

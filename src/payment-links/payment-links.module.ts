import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { MerchantsModule } from '../merchants/merchants.module';
import { PaymentsModule } from '../payments/payments.module';
import { AdminPaymentLinksController } from './admin-payment-links.controller';
import { PaymentLink, PaymentLinkOpen } from './payment-link.entity';
import { PaymentLinkOpenRepository } from './payment-link-open.repository';
import { PaymentLinkPagesService } from './payment-link-pages.service';
import { PaymentLinkRepository } from './payment-link.repository';
import { PaymentLinksController } from './payment-links.controller';
import { PaymentLinksService } from './payment-links.service';

/**
 * Payment links (docs/api.md, Payment links): the merchant API, the operator's routes, and
 * PaymentLinkPagesService, which the public pages (src/checkout/) call to show a link and open a
 * payment from it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PaymentLink, PaymentLinkOpen]), IdempotencyModule, MerchantsModule, PaymentsModule],
  controllers: [PaymentLinksController, AdminPaymentLinksController],
  providers: [PaymentLinkRepository, PaymentLinkOpenRepository, PaymentLinksService, PaymentLinkPagesService],
  exports: [PaymentLinkPagesService],
})
export class PaymentLinksModule {}

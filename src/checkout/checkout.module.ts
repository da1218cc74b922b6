import { Module } from '@nestjs/common';
import { MerchantsModule } from '../merchants/merchants.module';
import { PaymentLinksModule } from '../payment-links/payment-links.module';
import { PaymentsModule } from '../payments/payments.module';
import { RecurrencesModule } from '../recurrences/recurrences.module';
import { checkoutAssets, CheckoutAssets } from './checkout-assets';
import { CheckoutLimits } from './checkout-limits';
import { CheckoutStreams } from './checkout-streams';
import { CheckoutWatch } from './checkout-watch';
import { CheckoutController } from './checkout.controller';
import { CheckoutService } from './checkout.service';
import { PaymentLinkPagesController } from './payment-link-pages.controller';

/**
 * The public pages a payer sees (docs/checkout.md): a payment's or a recurrence's checkout page at
 * /pay/:token with its live state, and a payment link's form at /l/:slug.
 */
@Module({
  imports: [PaymentsModule, RecurrencesModule, PaymentLinksModule, MerchantsModule],
  controllers: [CheckoutController, PaymentLinkPagesController],
  providers: [{ provide: CheckoutAssets, useFactory: checkoutAssets }, CheckoutService, CheckoutLimits, CheckoutWatch, CheckoutStreams],
})
export class CheckoutModule {}

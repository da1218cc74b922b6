import { Module } from '@nestjs/common';
import { MerchantsModule } from '../merchants/merchants.module';
import { MerchantKeyGuard } from './merchant-key.guard';

/**
 * The merchant API's authentication: the `X-Merchant-Key` guard behind `@MerchantAuth()` and the
 * `@CurrentMerchant()` it fills. Imported by the modules with merchant routes. It sits above the
 * merchants module, whose keys it checks; the admin and metrics guards need no feature and stay in
 * `common/auth/`.
 */
@Module({
  imports: [MerchantsModule],
  providers: [MerchantKeyGuard],
  exports: [MerchantKeyGuard],
})
export class AuthModule {}

import { Global, Module } from '@nestjs/common';
import { MerchantAuthService } from './merchant-auth.service';
import { MerchantKeyGuard } from '../common/auth/merchant-key.guard';
import { MerchantRateLimitGuard } from '../common/auth/rate-limit.guard';

@Global()
@Module({
  providers: [MerchantAuthService, MerchantKeyGuard, MerchantRateLimitGuard],
  exports: [MerchantAuthService, MerchantKeyGuard, MerchantRateLimitGuard],
})
export class MerchantsModule {}

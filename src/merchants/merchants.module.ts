import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { MerchantAuthService } from './merchant-auth.service';
import { MerchantKeyGuard } from '../common/auth/merchant-key.guard';
import { WebhookUrlPolicy } from '../common/net/webhook-url-policy';
import { AdminMerchantsController } from './admin-merchants.controller';
import { AdminMerchantsService } from './admin-merchants.service';
import { ApiKey } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';
import { Merchant } from './merchant.entity';
import { MerchantRepository } from './merchant.repository';

/**
 * Merchants, their keys and the key guard (imported by the modules with merchant routes); it also
 * exports WebhookUrlPolicy, which checks webhook URLs when a merchant is saved here and again when
 * the delivery worker calls them.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Merchant, ApiKey]), ProvidersModule, ProviderAccountsModule],
  controllers: [AdminMerchantsController],
  providers: [MerchantRepository, ApiKeyRepository, MerchantAuthService, MerchantKeyGuard, WebhookUrlPolicy, AdminMerchantsService],
  exports: [MerchantRepository, ApiKeyRepository, MerchantAuthService, MerchantKeyGuard, WebhookUrlPolicy],
})
export class MerchantsModule {}

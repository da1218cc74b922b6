import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { MERCHANT_KEY_RESOLVER } from '../auth/merchant-key-resolver';
import { MerchantAuthService } from './merchant-auth.service';
import { WebhookUrlPolicy } from '../common/net/webhook-url-policy';
import { AdminMerchantsController } from './admin-merchants.controller';
import { AdminMerchantsService } from './admin-merchants.service';
import { ApiKey } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';
import { Merchant } from './merchant.entity';
import { MerchantRepository } from './merchant.repository';

/**
 * Merchants and their keys. It provides MERCHANT_KEY_RESOLVER, the port through which the key guard
 * (src/auth/, a lower layer) checks keys, so a module with merchant routes imports this one; it also
 * exports WebhookUrlPolicy, which checks webhook URLs when a merchant is saved here and again when
 * the delivery worker calls them.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Merchant, ApiKey]), ProvidersModule, ProviderAccountsModule],
  controllers: [AdminMerchantsController],
  providers: [
    MerchantRepository,
    ApiKeyRepository,
    MerchantAuthService,
    { provide: MERCHANT_KEY_RESOLVER, useExisting: MerchantAuthService },
    WebhookUrlPolicy,
    AdminMerchantsService,
  ],
  exports: [MerchantRepository, ApiKeyRepository, MerchantAuthService, MERCHANT_KEY_RESOLVER, WebhookUrlPolicy],
})
export class MerchantsModule {}

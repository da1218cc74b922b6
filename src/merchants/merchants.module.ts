import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProviderAccountsModule } from '../providers/provider-accounts/provider-accounts.module';
import { ProvidersModule } from '../providers/providers.module';
import { MerchantAuthService } from './merchant-auth.service';
import { WebhookUrlPolicy } from '../common/net/webhook-url-policy';
import { AdminMerchantsController } from './admin-merchants.controller';
import { AdminMerchantsService } from './admin-merchants.service';
import { ApiKey } from './api-key.entity';
import { ApiKeyRepository } from './api-key.repository';
import { Merchant } from './merchant.entity';
import { MerchantRepository } from './merchant.repository';
import { MerchantApiKeysController } from './merchant-api-keys.controller';
import { MerchantApiKeysService } from './merchant-api-keys.service';

/**
 * Merchants and their keys. MerchantAuthService resolves an X-Merchant-Key; AuthModule binds the
 * key guard's port (src/auth/, a lower layer) to it. It also exports WebhookUrlPolicy, which checks webhook URLs when a merchant is saved here and again when
 * the delivery worker calls them.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Merchant, ApiKey]), ProvidersModule, ProviderAccountsModule],
  controllers: [AdminMerchantsController, MerchantApiKeysController],
  providers: [MerchantRepository, ApiKeyRepository, MerchantAuthService, WebhookUrlPolicy, AdminMerchantsService, MerchantApiKeysService],
  exports: [MerchantRepository, ApiKeyRepository, MerchantAuthService, WebhookUrlPolicy],
})
export class MerchantsModule {}

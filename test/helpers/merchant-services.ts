import type { Provider } from '@nestjs/common';
import { WebhookUrlPolicy } from '../../src/common/net/webhook-url-policy';
import { AdminMerchantsService } from '../../src/merchants/admin-merchants.service';
import { ApiKeyRepository } from '../../src/merchants/api-key.repository';
import { MerchantAuthService } from '../../src/merchants/merchant-auth.service';
import { MerchantRepository } from '../../src/merchants/merchant.repository';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';

/** The merchant services and what they are built from, for a medium spec's module (with ProvidersModule imported). */
export const MERCHANT_SERVICES: Provider[] = [
  AdminMerchantsService,
  MerchantAuthService,
  MerchantRepository,
  ApiKeyRepository,
  ProviderAccountRepository,
  MerchantProviderAccountRepository,
  AccountResolver,
  AccountBreakers,
  WebhookUrlPolicy,
];

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProvidersModule } from '../providers.module';
import { AdminProviderAccountsController } from './admin-provider-accounts.controller';
import { MerchantProviderAccount, ProviderAccount } from './provider-account.entity';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from './provider-account.repository';
import { ProviderAccountsService } from './provider-accounts.service';
import { AccountResolver } from './account-resolver';
import { WebhookUrlPolicy } from '../../common/net/webhook-url-policy';
import { AccountBreakers } from '../routing/account-breakers';
import { AccountFailureRepository } from '../routing/account-failures.repository';

/** Provider accounts and each merchant's ordered list of them (docs/providers.md). */
@Module({
  imports: [TypeOrmModule.forFeature([ProviderAccount, MerchantProviderAccount]), ProvidersModule],
  controllers: [AdminProviderAccountsController],
  providers: [ProviderAccountRepository, MerchantProviderAccountRepository, AccountResolver, AccountBreakers, AccountFailureRepository, WebhookUrlPolicy, ProviderAccountsService],
  exports: [AccountResolver, AccountBreakers, ProviderAccountsService, MerchantProviderAccountRepository, ProviderAccountRepository],
})
export class ProviderAccountsModule {}

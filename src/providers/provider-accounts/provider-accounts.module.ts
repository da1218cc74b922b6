import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProvidersModule } from '../providers.module';
import { AdminProviderAccountsController } from './admin-provider-accounts.controller';
import { MerchantProviderAccount, ProviderAccount } from './provider-account.entity';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from './provider-account.repository';
import { ProviderAccountsService } from './provider-accounts.service';
import { AccountResolver } from './account-resolver';
import { WebhookUrlPolicy } from '../../common/net/webhook-url-policy';

/** Provider accounts and each merchant's ordered list of them (docs/providers.md). */
@Module({
  imports: [TypeOrmModule.forFeature([ProviderAccount, MerchantProviderAccount]), ProvidersModule],
  controllers: [AdminProviderAccountsController],
  providers: [ProviderAccountRepository, MerchantProviderAccountRepository, AccountResolver, WebhookUrlPolicy, ProviderAccountsService],
  exports: [AccountResolver, ProviderAccountsService, MerchantProviderAccountRepository, ProviderAccountRepository],
})
export class ProviderAccountsModule {}

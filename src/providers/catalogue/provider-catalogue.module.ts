import { Module } from '@nestjs/common';
import { ProvidersModule } from '../providers.module';
import { ProviderCatalogueController } from './provider-catalogue.controller';
import { ProviderCatalogueService } from './provider-catalogue.service';

/** `GET /admin/api/providers`: the catalogue the dashboard's account forms are built from (docs/providers.md). */
@Module({
  imports: [ProvidersModule],
  controllers: [ProviderCatalogueController],
  providers: [ProviderCatalogueService],
})
export class ProviderCatalogueModule {}

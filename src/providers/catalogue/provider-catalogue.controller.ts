import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../auth/admin-auth.guard';
import { ApiEnvelopeResponse } from '../../common/http/api-docs';
import { ProviderCatalogueService } from './provider-catalogue.service';
import { ProviderDescriptorView } from './provider-catalogue.view';

@ApiTags('providers')
@AdminAuth()
@Controller('admin/api/providers')
export class ProviderCatalogueController {
  constructor(private readonly catalogue: ProviderCatalogueService) {}

  @Get()
  @ApiOperation({
    summary: 'List providers',
    description:
      'Each provider as it describes itself: environments and their default hosts, account settings, credential fields and capabilities. The dashboard builds its account forms from it.',
  })
  @ApiEnvelopeResponse(200, ProviderDescriptorView, { isArray: true })
  listProviders(): ProviderDescriptorView[] {
    return this.catalogue.list();
  }
}

import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { MerchantAuth } from '../auth/merchant-key.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import { MerchantApiKeysService } from './merchant-api-keys.service';
import { CurrentApiKeyView } from './merchant.view';

@ApiTags('api-keys')
@MerchantAuth()
@Controller('v1/api-keys')
export class MerchantApiKeysController {
  constructor(private readonly keys: MerchantApiKeysService) {}

  @Get('current')
  @ApiOperation({
    summary: 'Read the API key in use',
    description:
      'The key this request was sent with: its id, prefix, creation and last use (to the minute). Before rotating keys, read it with each key to see which are still in use.',
  })
  @ApiEnvelopeResponse(200, CurrentApiKeyView)
  @ApiErrorResponses(ErrorCode.INTERNAL_ERROR)
  current(@CurrentMerchant() merchant: AuthenticatedMerchant): Promise<CurrentApiKeyView> {
    return this.keys.current(merchant);
  }
}

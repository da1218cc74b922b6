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
  @ApiEnvelopeResponse(200, CurrentApiKeyView, {
    example: { id: 'key_3kTMd9Q2xLr8VbN1cZp4Wf7A', prefix: 'mk_live_AbCd', created_at: '2026-11-01T12:00:00.000Z', last_used_at: '2026-11-26T11:59:30.000Z' },
  })
  @ApiErrorResponses(ErrorCode.INTERNAL_ERROR)
  getCurrentApiKey(@CurrentMerchant() merchant: AuthenticatedMerchant): Promise<CurrentApiKeyView> {
    return this.keys.current(merchant);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../auth/admin-auth.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses, validationExample } from '../common/http/api-docs';
import { AdminMerchantsService } from './admin-merchants.service';
import { CreateMerchantDto } from './dto/create-merchant.dto';
import { ListMerchantsQuery } from './dto/list-merchants.query';
import { UpdateMerchantDto } from './dto/update-merchant.dto';
import { ApiKeyView, IssuedApiKeyView, MerchantPage, MerchantView, MerchantWithSecretView } from './merchant.view';

const MERCHANT_ID = ApiParam({ name: 'id', example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' });

@ApiTags('merchants')
@AdminAuth()
@Controller('admin/api/merchants')
export class AdminMerchantsController {
  constructor(private readonly merchants: AdminMerchantsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a merchant',
    description: 'Then issue it an API key. `webhook_signing_secret: "generate"` returns the new secret in this response only.',
  })
  @ApiEnvelopeResponse(201, MerchantWithSecretView)
  @ApiErrorResponses(validationExample('name', 'name must be 1 to 200 characters'))
  createMerchant(@Body() body: CreateMerchantDto): Promise<MerchantWithSecretView> {
    return this.merchants.create(body);
  }

  @Get()
  @ApiOperation({ summary: 'List merchants', description: 'Newest first; `q` searches names. `data` is `{items, next_cursor}`: pass `cursor=next_cursor` for the next page.' })
  @ApiEnvelopeResponse(200, MerchantPage)
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR)
  listMerchants(@Query() query: ListMerchantsQuery): Promise<MerchantPage> {
    return this.merchants.list(query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a merchant', description: 'Its settings and provider accounts; never its webhook signing secret, which is shown once when set.' })
  @MERCHANT_ID
  @ApiEnvelopeResponse(200, MerchantView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  getMerchant(@Param('id') id: string): Promise<MerchantView> {
    return this.merchants.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a merchant',
    description: 'Only the fields sent change. `null` removes the webhook URL, the signing secret or the provider choice; `"generate"` replaces the secret and returns it once.',
  })
  @MERCHANT_ID
  @ApiEnvelopeResponse(200, MerchantWithSecretView)
  @ApiErrorResponses(validationExample('name', 'name must be 1 to 200 characters'), [ErrorCode.NOT_FOUND, { message: 'No merchant with this id.' }])
  updateMerchant(@Param('id') id: string, @Body() body: UpdateMerchantDto): Promise<MerchantWithSecretView> {
    return this.merchants.update(id, body);
  }

  @Post(':id/api-keys')
  @HttpCode(201)
  @ApiOperation({ summary: 'Issue an API key', description: 'The key is in this response only; a merchant may hold several keys (rotation).' })
  @MERCHANT_ID
  @ApiEnvelopeResponse(201, IssuedApiKeyView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  issueApiKey(@Param('id') id: string): Promise<IssuedApiKeyView> {
    return this.merchants.issueKey(id);
  }

  @Get(':id/api-keys')
  @ApiOperation({ summary: "List a merchant's API keys", description: 'Newest first, revoked ones included; only prefixes, never keys.' })
  @MERCHANT_ID
  @ApiEnvelopeResponse(200, ApiKeyView, { isArray: true })
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  listApiKeys(@Param('id') id: string): Promise<ApiKeyView[]> {
    return this.merchants.listKeys(id);
  }

  @Delete(':id/api-keys/:keyId')
  @ApiOperation({ summary: 'Revoke an API key', description: 'The key stops working at once, in every gateway process. An unknown or already revoked key is 404.' })
  @MERCHANT_ID
  @ApiParam({ name: 'keyId', example: 'key_7QmZ2xT9bLk4Wn8Rc1Vd5Hs3' })
  @ApiEnvelopeResponse(200, ApiKeyView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  revokeApiKey(@Param('id') id: string, @Param('keyId') keyId: string): Promise<ApiKeyView> {
    return this.merchants.revokeKey(id, keyId);
  }
}

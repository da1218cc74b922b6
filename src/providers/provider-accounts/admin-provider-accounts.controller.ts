import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../auth/admin-auth.guard';
import { ErrorCode } from '../../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses, validationExample } from '../../common/http/api-docs';
import { NoEnvelope } from '../../common/http/no-envelope.decorator';
import { CreateProviderAccountDto, UpdateProviderAccountDto } from './dto/provider-account.dto';
import { ProviderAccountCheckView, ProviderAccountView, ProviderAccountWebhookView } from './provider-account.view';
import { ProviderAccountsService } from './provider-accounts.service';

const ACCOUNT_ID = ApiParam({ name: 'id', example: 'pa_5hQm2Zt8KcV1xLr9BnW3dF7Y' });

@ApiTags('provider-accounts')
@AdminAuth()
@Controller('admin/api/provider-accounts')
export class AdminProviderAccountsController {
  constructor(private readonly accounts: ProviderAccountsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a provider account',
    description:
      'Credentials are checked for shape, then stored encrypted; they are never returned. `receiver_account` (optional) is where recurring Pix charges settle: required before the first recurrence.',
  })
  @ApiEnvelopeResponse(201, ProviderAccountView)
  @ApiErrorResponses(validationExample('credentials.client_id', 'is required'))
  createProviderAccount(@Body() body: CreateProviderAccountDto): Promise<ProviderAccountView> {
    return this.accounts.create(body);
  }

  @Get()
  @ApiOperation({ summary: 'List provider accounts', description: 'Newest first.' })
  @ApiEnvelopeResponse(200, ProviderAccountView, { isArray: true })
  listProviderAccounts(): Promise<ProviderAccountView[]> {
    return this.accounts.list();
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a provider account', description: 'Its settings, never its credentials: those are write-only, stored encrypted.' })
  @ACCOUNT_ID
  @ApiEnvelopeResponse(200, ProviderAccountView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  getProviderAccount(@Param('id') id: string): Promise<ProviderAccountView> {
    return this.accounts.get(id);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change a provider account',
    description:
      'Only the fields sent change; `credentials` and `receiver_account` are each replaced whole (`receiver_account: null` removes it). A change of `base_url` or `token_url` must bring `credentials` in the same ' +
      'request (400 naming `credentials` otherwise): stored secrets never follow a changed host. Hosts must be `https` without user information, ' +
      'follow WEBHOOK_ALLOW_PRIVATE_URLS, and never be a cloud metadata address. In production an active `environment: sandbox` account is ' +
      'refused (400 naming `environment`) unless ALLOW_HOMOLOGATION_ACCOUNTS=true.',
  })
  @ACCOUNT_ID
  @ApiEnvelopeResponse(200, ProviderAccountView)
  @ApiErrorResponses(validationExample('base_url', 'base_url must be an https URL'), [ErrorCode.NOT_FOUND, { message: 'Provider account not found.' }])
  updateProviderAccount(@Param('id') id: string, @Body() body: UpdateProviderAccountDto): Promise<ProviderAccountView> {
    return this.accounts.update(id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @NoEnvelope()
  @ApiOperation({
    summary: 'Delete a provider account',
    description:
      'Removes an account no merchant lists and no pending payment was charged through, with its credentials. Otherwise 409 `CONFLICT`, ' +
      'naming the merchants that list it and the number of pending payments (`details.merchant_ids`, `details.pending_payments`): deactivate it instead.',
  })
  @ACCOUNT_ID
  @ApiNoContentResponse({ description: 'Deleted; no body.' })
  @ApiErrorResponses(ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)
  deleteProviderAccount(@Param('id') id: string): Promise<void> {
    return this.accounts.remove(id);
  }

  @Post(':id/check')
  @HttpCode(200)
  @ApiOperation({ summary: 'Check a provider account', description: 'Obtains a token and makes one read at the PSP.' })
  @ACCOUNT_ID
  @ApiEnvelopeResponse(200, ProviderAccountCheckView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  checkProviderAccount(@Param('id') id: string): Promise<ProviderAccountCheckView> {
    return this.accounts.check(id);
  }

  @Post(':id/webhook')
  @HttpCode(200)
  @ApiOperation({ summary: "Register the account's webhook at the PSP", description: "Pix API PSPs: `PUT /webhook/{chave}` with the account's `webhook_url`." })
  @ACCOUNT_ID
  @ApiEnvelopeResponse(200, ProviderAccountWebhookView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND, ErrorCode.UPSTREAM_ERROR, [
    ErrorCode.CONFLICT,
    { message: 'The provider "mercadopago" has no webhook registration: configure it at the provider.', provider: 'mercadopago' },
  ])
  registerProviderAccountWebhook(@Param('id') id: string): Promise<ProviderAccountWebhookView> {
    return this.accounts.registerWebhook(id);
  }
}

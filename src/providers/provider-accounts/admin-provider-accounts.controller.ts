import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../common/auth/admin-auth.guard';
import { ErrorCode } from '../../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../../common/http/api-docs';
import { CreateProviderAccountDto, UpdateProviderAccountDto } from './dto/provider-account.dto';
import { ProviderAccountCheckView, ProviderAccountView, ProviderAccountWebhookView } from './provider-account.view';
import { ProviderAccountsService } from './provider-accounts.service';

const ACCOUNT_ID = ApiParam({ name: 'id', example: 'pa_5hQm2Zt8KcV1xLr9BnW3dF7Y' });

@ApiTags('admin')
@AdminAuth()
@Controller('admin/api/provider-accounts')
export class AdminProviderAccountsController {
  constructor(private readonly accounts: ProviderAccountsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a provider account', description: 'Credentials are checked for shape, then stored encrypted; they are never returned.' })
  @ApiEnvelopeResponse(201, ProviderAccountView)
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR)
  create(@Body() body: CreateProviderAccountDto): Promise<ProviderAccountView> {
    return this.accounts.create(body);
  }

  @Get()
  @ApiOperation({ summary: 'List provider accounts', description: 'Newest first.' })
  @ApiEnvelopeResponse(200, ProviderAccountView, { isArray: true })
  list(): Promise<ProviderAccountView[]> {
    return this.accounts.list();
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a provider account' })
  @ACCOUNT_ID
  @ApiEnvelopeResponse(200, ProviderAccountView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  get(@Param('id') id: string): Promise<ProviderAccountView> {
    return this.accounts.get(id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change a provider account', description: 'Only the fields sent change; `credentials` is replaced whole.' })
  @ACCOUNT_ID
  @ApiEnvelopeResponse(200, ProviderAccountView)
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND)
  update(@Param('id') id: string, @Body() body: UpdateProviderAccountDto): Promise<ProviderAccountView> {
    return this.accounts.update(id, body);
  }

  @Post(':id/check')
  @HttpCode(200)
  @ApiOperation({ summary: 'Check a provider account', description: 'Obtains a token and makes one read at the PSP.' })
  @ACCOUNT_ID
  @ApiEnvelopeResponse(200, ProviderAccountCheckView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  check(@Param('id') id: string): Promise<ProviderAccountCheckView> {
    return this.accounts.check(id);
  }

  @Post(':id/webhook')
  @HttpCode(200)
  @ApiOperation({ summary: "Register the account's webhook at the PSP", description: "Pix API PSPs: `PUT /webhook/{chave}` with the account's `webhook_url`." })
  @ACCOUNT_ID
  @ApiEnvelopeResponse(200, ProviderAccountWebhookView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND, ErrorCode.UPSTREAM_ERROR)
  registerWebhook(@Param('id') id: string): Promise<ProviderAccountWebhookView> {
    return this.accounts.registerWebhook(id);
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../auth/admin-auth.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses, validationExample } from '../common/http/api-docs';
import type { Page } from '../common/http/cursor';
import { CreatePaymentLinkDto } from './dto/create-payment-link.dto';
import { ListAdminPaymentLinksQuery } from './dto/list-payment-links.query';
import { ADMIN_PAYMENT_LINK_EXAMPLE, CREATE_PAYMENT_LINK_EXAMPLES } from './payment-link-examples';
import { AdminPaymentLinkDetailView, AdminPaymentLinkPageView, AdminPaymentLinkView } from './payment-link.view';
import { PaymentLinksService } from './payment-links.service';
import { PAYMENT_LINK_ID, PAYMENT_LINK_NOT_FOUND } from './payment-links.controller';

/** Payment links for the operator (the dashboard's payment-link pages). */
@ApiTags('admin-payments')
@AdminAuth()
@Controller('admin/api')
export class AdminPaymentLinksController {
  constructor(private readonly links: PaymentLinksService) {}

  @Post('merchants/:id/payment-links')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a payment link for a merchant',
    description: 'As `POST /v1/payment-links` by the merchant (the same body and rules), without an Idempotency-Key. An unknown merchant is 404; an inactive one 409 CONFLICT.',
  })
  @ApiParam({ name: 'id', example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiBody({ type: CreatePaymentLinkDto, examples: CREATE_PAYMENT_LINK_EXAMPLES })
  @ApiEnvelopeResponse(201, AdminPaymentLinkView, { example: ADMIN_PAYMENT_LINK_EXAMPLE })
  @ApiErrorResponses(
    validationExample('amount', 'give exactly one of amount (a fixed amount) and amountRange (the payer chooses)'),
    [ErrorCode.NOT_FOUND, { message: 'Merchant not found.' }],
    [ErrorCode.CONFLICT, { message: 'The merchant mer_3kTMd9Q2xLr8VbN1cZp4Wf7A is inactive: its links would take no payment.' }],
  )
  adminCreatePaymentLink(@Param('id') merchantId: string, @Body() body: CreatePaymentLinkDto): Promise<AdminPaymentLinkView> {
    return this.links.createForMerchant(merchantId, body);
  }

  @Get('payment-links')
  @ApiOperation({
    summary: 'List payment links across merchants',
    description: 'Newest first, filtered by `merchant_id` and `active`; `data` is `{items, next_cursor}`: pass `cursor=next_cursor` for the next page.',
  })
  @ApiEnvelopeResponse(200, AdminPaymentLinkPageView, { example: { items: [ADMIN_PAYMENT_LINK_EXAMPLE], next_cursor: null } })
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR)
  adminListPaymentLinks(@Query() query: ListAdminPaymentLinksQuery): Promise<Page<AdminPaymentLinkView>> {
    return this.links.adminList(query);
  }

  @Get('payment-links/:id')
  @ApiOperation({
    summary: 'One payment link with its latest payments',
    description: 'The link as its merchant reads it, with `merchant_id` and its 20 latest payments, newest first.',
  })
  @PAYMENT_LINK_ID
  @ApiEnvelopeResponse(200, AdminPaymentLinkDetailView, { example: { ...ADMIN_PAYMENT_LINK_EXAMPLE, payments: [] } })
  @ApiErrorResponses(PAYMENT_LINK_NOT_FOUND)
  adminGetPaymentLink(@Param('id') id: string): Promise<AdminPaymentLinkDetailView> {
    return this.links.adminDetail(id);
  }

  @Post('payment-links/:id/deactivate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Deactivate a payment link', description: 'As its merchant would: for good; already inactive answers as it is.' })
  @PAYMENT_LINK_ID
  @ApiEnvelopeResponse(200, AdminPaymentLinkView, { example: { ...ADMIN_PAYMENT_LINK_EXAMPLE, active: false, state: 'inactive' } })
  @ApiErrorResponses(PAYMENT_LINK_NOT_FOUND)
  adminDeactivatePaymentLink(@Param('id') id: string): Promise<AdminPaymentLinkView> {
    return this.links.adminDeactivate(id);
  }
}

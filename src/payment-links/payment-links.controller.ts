import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { MerchantAuth } from '../auth/merchant-key.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses, validationExample } from '../common/http/api-docs';
import type { Page } from '../common/http/cursor';
import type { PreparedResponse } from '../common/http/envelope';
import { ApiIdempotencyKey, IdempotentRequest } from '../idempotency/idempotent-request';
import { CreatePaymentLinkDto } from './dto/create-payment-link.dto';
import { ListPaymentLinksQuery } from './dto/list-payment-links.query';
import { CREATE_PAYMENT_LINK_EXAMPLES, DEACTIVATED_PAYMENT_LINK_EXAMPLE, PAYMENT_LINK_EXAMPLE } from './payment-link-examples';
import { PaymentLinkPageView, PaymentLinkView } from './payment-link.view';
import { PaymentLinksService } from './payment-links.service';

export const PAYMENT_LINK_ID = ApiParam({ name: 'id', example: 'plink_3kTMd9Q2xLr8VbN1cZp4Wf7A' });
export const PAYMENT_LINK_NOT_FOUND = [ErrorCode.NOT_FOUND, { message: 'Payment link not found.' }] as const;

/** Reusable payment links for merchants (docs/api.md, Payment links). */
@ApiTags('payments')
@MerchantAuth()
@Controller('v1')
export class PaymentLinksController {
  constructor(private readonly links: PaymentLinksService) {}

  @Post('payment-links')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a payment link',
    description:
      'A page to send payers (on WhatsApp, by e-mail): `url` is `PUBLIC_BASE_URL/l/<slug>`. The payer gives a name and CPF/CNPJ (and an e-mail when `collect.email`), ' +
      'and for an `amountRange` the amount; each submit makes a payment of the merchant’s, routed as any create, with `paymentLinkId` and the `externalId` `<link id>-<n>`, ' +
      'and opens its checkout page. Exactly one of `amount` and `amountRange`. Idempotent per Idempotency-Key as payments are.',
  })
  @ApiIdempotencyKey('payment link')
  @ApiBody({ type: CreatePaymentLinkDto, examples: CREATE_PAYMENT_LINK_EXAMPLES })
  @ApiEnvelopeResponse(201, PaymentLinkView, { description: 'Created, or a replay of the creation (then with `Idempotent-Replayed: true`).', example: PAYMENT_LINK_EXAMPLE })
  @ApiErrorResponses(
    validationExample('amount', 'give exactly one of amount (a fixed amount) and amountRange (the payer chooses)'),
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    ErrorCode.IDEMPOTENCY_IN_PROGRESS,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.INTERNAL_ERROR,
  )
  createPaymentLink(
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Body() body: CreatePaymentLinkDto,
    @IdempotentRequest() request: IdempotentRequest,
  ): Promise<PreparedResponse> {
    return this.links.create(merchant, body, request);
  }

  @Get('payment-links')
  @ApiOperation({
    summary: "List the merchant's payment links",
    description: 'Newest first, `data` is `{items, next_cursor}`: pass `cursor=next_cursor` for the next page. Filter by `active`.',
  })
  @ApiEnvelopeResponse(200, PaymentLinkPageView, { example: { items: [PAYMENT_LINK_EXAMPLE], next_cursor: null } })
  @ApiErrorResponses(validationExample('active', 'active must be true or false'), ErrorCode.INTERNAL_ERROR)
  listPaymentLinks(@CurrentMerchant() merchant: AuthenticatedMerchant, @Query() query: ListPaymentLinksQuery): Promise<Page<PaymentLinkView>> {
    return this.links.list(merchant.id, query);
  }

  @Get('payment-links/:id')
  @ApiOperation({
    summary: 'Read a payment link',
    description:
      "With its state and counts (read from its payments: `GET /v1/payments?paymentLinkId=` lists them). Another merchant's link, or an id that does not exist, is 404 NOT_FOUND.",
  })
  @PAYMENT_LINK_ID
  @ApiEnvelopeResponse(200, PaymentLinkView, { example: PAYMENT_LINK_EXAMPLE })
  @ApiErrorResponses(PAYMENT_LINK_NOT_FOUND, ErrorCode.INTERNAL_ERROR)
  getPaymentLink(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string): Promise<PaymentLinkView> {
    return this.links.get(merchant.id, id);
  }

  @Post('payment-links/:id/deactivate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Deactivate a payment link',
    description:
      'For good: its page then says the link is no longer available, and no payment can be opened from it (payments already opened are unchanged). Already inactive: 200 again, as it is.',
  })
  @PAYMENT_LINK_ID
  @ApiEnvelopeResponse(200, PaymentLinkView, { example: DEACTIVATED_PAYMENT_LINK_EXAMPLE })
  @ApiErrorResponses(PAYMENT_LINK_NOT_FOUND, ErrorCode.INTERNAL_ERROR)
  deactivatePaymentLink(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string): Promise<PaymentLinkView> {
    return this.links.deactivate(merchant.id, id);
  }
}

import { applyDecorators, Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Req, type Type } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import { MerchantAuth } from '../auth/merchant-key.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { CREATE_PAYMENT_EXAMPLES, PAID_PAYMENT_EXAMPLE, PENDING_PAYMENT_EXAMPLE, UPDATE_PAYMENT_EXAMPLES } from './payment-examples';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import type { PreparedResponse } from '../common/http/envelope';
import { answerData } from '../common/http/request-state';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { ApiIdempotencyKey, IdempotentRequest } from '../idempotency/idempotent-request';
import { CreatePaymentDto, CreatePixPaymentDto } from './dto/create-payment.dto';
import { PaymentPageView, PaymentView } from './payment.view';
import { MerchantListPaymentsQuery } from './dto/merchant-list-payments.query';
import type { Page } from '../common/http/cursor';
import { PaymentsService } from './payments.service';
import { UpdatePaymentDto } from './due/update-payment.dto';
import { UpdateDueChargeService } from './due/update-due-charge.service';

const CREATE_ERRORS = [
  ErrorCode.VALIDATION_ERROR,
  ErrorCode.PAYMENT_CREATE_FAILED,
  ErrorCode.IDEMPOTENCY_KEY_REUSED,
  ErrorCode.IDEMPOTENCY_IN_PROGRESS,
  ErrorCode.PAYLOAD_TOO_LARGE,
  ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  ErrorCode.INTERNAL_ERROR,
] as const;

const CreateDocs = (summary: string, body: Type<unknown>) =>
  applyDecorators(
    ApiOperation({
      summary,
      description:
        "Creates a Pix charge at the merchant's provider and returns the payment with its BR Code and QR image. " +
        'Idempotent per Idempotency-Key: the same key and body replay the first response (`Idempotent-Replayed: true`); ' +
        'a different body is 422; a request still in flight is 409; after a 502 a retry with the same key re-attempts the same charge.',
    }),
    ApiIdempotencyKey('logical payment'),
    ApiBody({ type: body, examples: CREATE_PAYMENT_EXAMPLES }),
    ApiEnvelopeResponse(201, PaymentView, { description: 'Created, or a replay of the creation (then with `Idempotent-Replayed: true`).', example: PENDING_PAYMENT_EXAMPLE }),
    ApiErrorResponses(...CREATE_ERRORS),
  );

const ReadDocs = () =>
  applyDecorators(
    ApiOperation({ summary: 'Read a payment and its status', description: "Another merchant's payment, or an id that does not exist, is 404 NOT_FOUND." }),
    ApiParam({ name: 'id', example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' }),
    ApiEnvelopeResponse(200, PaymentView, { example: PAID_PAYMENT_EXAMPLE }),
    ApiErrorResponses(ErrorCode.NOT_FOUND, ErrorCode.INTERNAL_ERROR),
  );

@ApiTags('payments')
@MerchantAuth()
@Controller('v1')
export class PaymentsController {
  constructor(
    private readonly payments: PaymentsService,
    private readonly dueCharges: UpdateDueChargeService,
  ) {}

  @Post('payments/create')
  @HttpCode(201)
  @CreateDocs('Create a payment', CreatePaymentDto)
  createPayment(@CurrentMerchant() merchant: AuthenticatedMerchant, @Body() body: CreatePaymentDto, @IdempotentRequest() request: IdempotentRequest): Promise<PreparedResponse> {
    return this.payments.create(merchant, body, request);
  }

  @Post('pix/create')
  @HttpCode(201)
  @CreateDocs('Create a Pix payment', CreatePixPaymentDto)
  createPixPayment(
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Body() body: CreatePixPaymentDto,
    @IdempotentRequest() request: IdempotentRequest,
  ): Promise<PreparedResponse> {
    return this.payments.create(merchant, body, request);
  }

  @Get('payments')
  @ApiOperation({
    summary: "List the merchant's payments",
    description:
      'Newest first, `data` is `{items, next_cursor}`; pass `cursor=next_cursor` for the next page. Filter by `externalId` to find the payment of an order. ' +
      "Only the merchant's own payments ever appear.",
  })
  @ApiEnvelopeResponse(200, PaymentPageView, { example: { items: [PAID_PAYMENT_EXAMPLE], next_cursor: null } })
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR, ErrorCode.INTERNAL_ERROR)
  listPayments(@CurrentMerchant() merchant: AuthenticatedMerchant, @Query() query: MerchantListPaymentsQuery): Promise<Page<PaymentView>> {
    return this.payments.list(merchant.id, query);
  }

  @Get('payments/:id')
  @ReadDocs()
  async getPayment(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<PaymentView> {
    return answerData(req, await this.payments.get(merchant.id, id));
  }

  @Patch('payments/:id')
  @ApiOperation({
    summary: 'Change a pending due-date charge',
    description:
      'Changes the original amount or the `due` terms (replaced as a whole) of a pending due-date charge, at the PSP and here; the BR Code stays the same and the merchant receives `payment.updated` ' +
      '(docs/due-charges.md). A payment that is not pending, or an immediate charge, is 409 PAYMENT_STATE_CONFLICT.',
  })
  @ApiParam({ name: 'id', example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiIdempotencyKey('change')
  @ApiBody({ type: UpdatePaymentDto, examples: UPDATE_PAYMENT_EXAMPLES })
  @ApiEnvelopeResponse(200, PaymentView, { description: 'Changed, or a replay of the change (then with `Idempotent-Replayed: true`).', example: PENDING_PAYMENT_EXAMPLE })
  @ApiErrorResponses(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.PAYMENT_STATE_CONFLICT,
    ErrorCode.OPERATION_NOT_SUPPORTED,
    ErrorCode.UPSTREAM_ERROR,
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    ErrorCode.IDEMPOTENCY_IN_PROGRESS,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.INTERNAL_ERROR,
  )
  updatePayment(
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Param('id') id: string,
    @Body() body: UpdatePaymentDto,
    @IdempotentRequest() request: IdempotentRequest,
  ): Promise<PreparedResponse> {
    return this.dueCharges.update(merchant.id, id, body, request);
  }

  @Get('pix/:id')
  @ReadDocs()
  async getPixPayment(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<PaymentView> {
    return answerData(req, await this.payments.get(merchant.id, id));
  }
}

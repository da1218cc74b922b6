import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { MerchantAuth } from '../auth/merchant-key.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses, validationExample } from '../common/http/api-docs';
import type { Page } from '../common/http/cursor';
import type { PreparedResponse } from '../common/http/envelope';
import { answerData } from '../common/http/request-state';
import { ApiIdempotencyKey, IdempotentRequest } from '../idempotency/idempotent-request';
import { CreatePaymentBatchDto } from './dto/create-payment-batch.dto';
import { ListPaymentBatchesQuery } from './dto/list-payment-batches.query';
import { COMPLETED_BATCH_EXAMPLE, COMPLETED_BATCH_SUMMARY_EXAMPLE, PROCESSING_BATCH_EXAMPLE } from './payment-batch-examples';
import { PaymentBatchPageView, type PaymentBatchSummaryView, PaymentBatchView } from './payment-batch.view';
import { PaymentBatchesService } from './payment-batches.service';
import { CREATE_PAYMENT_BATCH_EXAMPLES } from '../payments/payment-examples';

/**
 * The one route whose body may exceed the gateway's 64 KiB: 1,000 payments with their due-date terms
 * take up to about 1.3 MB (docs/api.md, Payment batches). app.ts applies a route's own `bodyLimit`.
 */
export const BATCH_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

const BATCH_NOT_FOUND = [ErrorCode.NOT_FOUND, { message: 'Payment batch not found.' }] as const;

/** Batches of due-date charges for merchants (docs/api.md, Payment batches). */
@ApiTags('payments')
@MerchantAuth()
@Controller('v1')
export class PaymentBatchesController {
  constructor(private readonly batches: PaymentBatchesService) {}

  @Post('payment-batches')
  @HttpCode(202)
  @RouteConfig({ bodyLimit: BATCH_BODY_LIMIT_BYTES })
  @ApiOperation({
    summary: 'Create a batch of due-date charges',
    description:
      'Up to 1,000 due-date charges in one request (a month of invoices), each a create body with `due` and its own `externalId`. Every payment is checked first: ' +
      'a bad one is 400 VALIDATION_ERROR naming it by index (`payments.3.due.date`), and nothing is created. Accepted, the batch answers 202 with every item ' +
      '`pending`; the payments are then made in the background (as PSP batches where the provider takes them, `PUT /lotecobv`, else one by one), and ' +
      '`payment_batch.completed` is sent once every item is `created` or `failed`. The body may be up to 2 MiB (other routes: 64 KiB). Idempotent per Idempotency-Key as payments are.',
  })
  @ApiIdempotencyKey('batch')
  @ApiBody({ type: CreatePaymentBatchDto, examples: CREATE_PAYMENT_BATCH_EXAMPLES })
  @ApiEnvelopeResponse(202, PaymentBatchView, {
    description: 'Accepted, or a replay of the acceptance (then with `Idempotent-Replayed: true`).',
    example: PROCESSING_BATCH_EXAMPLE,
  })
  @ApiErrorResponses(
    validationExample('payments.3.due.date', 'due.date must be today or later in Brasília'),
    [
      ErrorCode.VALIDATION_ERROR,
      {
        status: 422,
        message: 'The merchant has no provider account that takes due-date charges.',
        details: { fields: [{ field: 'due', message: "None of the merchant's providers (mercadopago) offers due-date charges through this gateway." }] },
      },
    ],
    ErrorCode.PAYMENT_CREATE_FAILED,
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    ErrorCode.IDEMPOTENCY_IN_PROGRESS,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.INTERNAL_ERROR,
  )
  createPaymentBatch(
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Body() body: CreatePaymentBatchDto,
    @IdempotentRequest() request: IdempotentRequest,
  ): Promise<PreparedResponse> {
    return this.batches.create(merchant, body, request);
  }

  @Get('payment-batches')
  @ApiOperation({
    summary: "List the merchant's payment batches",
    description: 'Newest first, without their items (read one for them); `data` is `{items, next_cursor}`: pass `cursor=next_cursor` for the next page. Filter by `status`.',
  })
  @ApiEnvelopeResponse(200, PaymentBatchPageView, { example: { items: [COMPLETED_BATCH_SUMMARY_EXAMPLE], next_cursor: null } })
  @ApiErrorResponses(validationExample('status', 'status must be one of the following values: processing, completed'), ErrorCode.INTERNAL_ERROR)
  listPaymentBatches(@CurrentMerchant() merchant: AuthenticatedMerchant, @Query() query: ListPaymentBatchesQuery): Promise<Page<PaymentBatchSummaryView>> {
    return this.batches.list(merchant.id, query);
  }

  @Get('payment-batches/:id')
  @ApiOperation({
    summary: 'Read a payment batch with each item’s outcome',
    description: "Each item with its `paymentId` once `created` or its `error` once `failed`. Another merchant's batch, or an id that does not exist, is 404 NOT_FOUND.",
  })
  @ApiParam({ name: 'id', example: 'bat_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, PaymentBatchView, { example: COMPLETED_BATCH_EXAMPLE })
  @ApiErrorResponses(BATCH_NOT_FOUND, ErrorCode.INTERNAL_ERROR)
  async getPaymentBatch(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<PaymentBatchView> {
    return answerData(req, await this.batches.get(merchant.id, id));
  }
}

import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentMerchant } from '../../auth/current-merchant.decorator';
import type { AuthenticatedMerchant } from '../../auth/merchant-key-resolver';
import { MerchantAuth } from '../../auth/merchant-key.guard';
import { ErrorCode } from '../../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../../common/http/api-docs';
import type { PreparedResponse } from '../../common/http/envelope';
import { answerData, requestState } from '../../common/http/request-state';
import { IdempotentRequest } from '../../idempotency/idempotent-request';
import { PaymentView } from '../payment.view';
import { RefundView } from './refund.view';
import { CancelService } from '../cancel.service';
import { CancelDocs, CreateRefundDocs, PAYMENT_ID, REFUND_EXAMPLE } from './refund-docs';
import { CreateRefundDto } from './dto/create-refund.dto';
import { RefundsService } from './refunds.service';

@ApiTags('refunds')
@MerchantAuth()
@Controller('v1')
export class RefundsController {
  constructor(
    private readonly refunds: RefundsService,
    private readonly cancels: CancelService,
  ) {}

  @Post('payments/:id/refunds')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Refund a payment, in full or in part',
    description:
      'Returns money of a paid (or partially refunded) payment through its PSP (a Pix devolução). `amount` defaults to what is left. ' +
      'The refund is usually `pending` until the PSP settles it; `refund.succeeded` or `refund.failed` follows by webhook. ' +
      'Idempotent per Idempotency-Key as payment creation: a retry after a 502 asks the PSP for the same refund, never a second one.',
  })
  @CreateRefundDocs()
  refundPayment(
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Param('id') id: string,
    @Body() body: CreateRefundDto,
    @IdempotentRequest('id') request: IdempotentRequest,
  ): Promise<PreparedResponse> {
    return this.refunds.create(merchant.id, id, body, request);
  }

  @Get('payments/:id/refunds')
  @ApiOperation({
    summary: "A payment's refunds, oldest first",
    description: "Every refund of the payment, MED returns included (`origin: med`); another merchant's payment is 404 NOT_FOUND.",
  })
  @PAYMENT_ID
  @ApiEnvelopeResponse(200, RefundView, { isArray: true, example: [{ ...REFUND_EXAMPLE, status: 'succeeded', updatedAt: '2026-11-26T12:00:02.000Z' }] })
  @ApiErrorResponses(ErrorCode.NOT_FOUND, ErrorCode.INTERNAL_ERROR)
  async listRefunds(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<RefundView[]> {
    return answerData(req, await this.refunds.list(merchant.id, id));
  }

  @Get('refunds/:id')
  @ApiOperation({ summary: 'One refund', description: "Another merchant's refund, or an id that does not exist, is 404 NOT_FOUND." })
  @ApiParam({ name: 'id', example: 'ref_9xQ2mN4pL7sT1vB8cD3fG6hJ' })
  @ApiEnvelopeResponse(200, RefundView, { example: { ...REFUND_EXAMPLE, status: 'failed', failureReason: "The payer's account is closed." } })
  @ApiErrorResponses(ErrorCode.NOT_FOUND, ErrorCode.INTERNAL_ERROR)
  async getRefund(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<RefundView> {
    return answerData(req, await this.refunds.get(merchant.id, id));
  }

  @Post('payments/:id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a pending payment',
    description:
      'Cancels the charge at the PSP so it can no longer be paid. Already cancelled: 200 again. Not pending: 409 PAYMENT_STATE_CONFLICT; ' +
      'if the PSP says it was paid meanwhile, the payment becomes `paid` and the answer is 409.',
  })
  @CancelDocs()
  async cancelPayment(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<PaymentView> {
    return answerData(req, await this.cancels.cancel(merchant.id, id, requestState(req).requestId));
  }
}

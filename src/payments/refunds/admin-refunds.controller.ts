import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AdminAuth } from '../../auth/admin-auth.guard';
import type { PreparedResponse } from '../../common/http/envelope';
import { answerData, requestState } from '../../common/http/request-state';
import { IdempotentRequest } from '../../idempotency/idempotent-request';
import { PaymentView } from '../payment.view';
import { CancelService } from '../cancel.service';
import { CancelDocs, CreateRefundDocs } from './refund-docs';
import { CreateRefundDto } from './dto/create-refund.dto';
import { RefundsService } from './refunds.service';

/** The dashboard's refund and cancel buttons: the merchant API's operations, done by the operator for the payment's merchant. */
@ApiTags('admin-payments')
@AdminAuth()
@Controller('admin/api/payments')
export class AdminRefundsController {
  constructor(
    private readonly refunds: RefundsService,
    private readonly cancels: CancelService,
  ) {}

  @Post(':id/refunds')
  @HttpCode(201)
  @ApiOperation({ summary: 'Refund a payment for its merchant', description: 'As `POST /v1/payments/:id/refunds`, with the Idempotency-Key in the merchant’s key space.' })
  @CreateRefundDocs()
  adminRefundPayment(@Param('id') id: string, @Body() body: CreateRefundDto, @IdempotentRequest('id') request: IdempotentRequest): Promise<PreparedResponse> {
    return this.refunds.createAsOperator(id, body, request);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a pending payment for its merchant', description: 'As `POST /v1/payments/:id/cancel`.' })
  @CancelDocs()
  async adminCancelPayment(@Param('id') id: string, @Req() req: FastifyRequest): Promise<PaymentView> {
    return answerData(req, await this.cancels.cancelAsOperator(id, requestState(req).requestId));
  }
}

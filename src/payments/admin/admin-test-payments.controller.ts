import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../auth/admin-auth.guard';
import { ErrorCode } from '../../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../../common/http/api-docs';
import type { PreparedResponse } from '../../common/http/envelope';
import { AdminTestPaymentsService } from './admin-test-payments.service';
import { ApiIdempotencyKey, IdempotentRequest } from '../../idempotency/idempotent-request';
import { CreateTestPaymentDto } from './dto/create-test-payment.dto';
import { PaymentView } from '../payment.view';

@ApiTags('admin-payments')
@AdminAuth()
@Controller('admin/api/test-payments')
export class AdminTestPaymentsController {
  constructor(private readonly testPayments: AdminTestPaymentsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a test payment for a merchant',
    description:
      "Creates a payment for the merchant as `POST /v1/payments/create` would (its routing, the Idempotency-Key in the merchant's key space, its webhooks), " +
      'addressed to a fixed test payer. Refused in production (403 FORBIDDEN) and when any account on the merchant’s route is a production one (409 CONFLICT).',
  })
  @ApiIdempotencyKey('test payment')
  @ApiBody({ type: CreateTestPaymentDto })
  @ApiEnvelopeResponse(201, PaymentView, { description: 'Created, or a replay of the creation (then with `Idempotent-Replayed: true`).' })
  @ApiErrorResponses(
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.FORBIDDEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.CONFLICT,
    ErrorCode.PAYMENT_CREATE_FAILED,
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    ErrorCode.IDEMPOTENCY_IN_PROGRESS,
  )
  createTestPayment(@Body() body: CreateTestPaymentDto, @IdempotentRequest() request: IdempotentRequest): Promise<PreparedResponse> {
    return this.testPayments.create(body, request);
  }
}

import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam } from '@nestjs/swagger';
import { ErrorCode } from '../../common/errors/error-codes';
import { ApiIdempotencyKey } from '../../idempotency/idempotent-request';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../../common/http/api-docs';
import { CANCELLED_PAYMENT_EXAMPLE } from '../payment-examples';
import { PaymentView } from '../payment.view';
import { RefundView } from './refund.view';
import { CreateRefundDto } from './dto/create-refund.dto';

export const PAYMENT_ID = ApiParam({ name: 'id', example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' });

export const REFUND_EXAMPLE = {
  id: 'ref_9xQ2mN4pL7sT1vB8cD3fG6hJ',
  paymentId: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A',
  amount: 3.5,
  status: 'pending',
  origin: 'merchant',
  reason: 'Item returned',
  failureReason: null,
  createdAt: '2026-11-26T12:00:00.000Z',
  updatedAt: '2026-11-26T12:00:00.000Z',
};

/** What asking for a refund takes and answers, the merchant's call and the dashboard's alike. */
export const CreateRefundDocs = () =>
  applyDecorators(
    PAYMENT_ID,
    ApiIdempotencyKey('refund'),
    ApiBody({ type: CreateRefundDto }),
    ApiEnvelopeResponse(201, RefundView, { description: 'Created, or a replay (then with `Idempotent-Replayed: true`).', example: REFUND_EXAMPLE }),
    ApiErrorResponses(
      ErrorCode.VALIDATION_ERROR,
      ErrorCode.NOT_FOUND,
      ErrorCode.PAYMENT_STATE_CONFLICT,
      ErrorCode.REFUND_EXCEEDS_AVAILABLE,
      ErrorCode.OPERATION_NOT_SUPPORTED,
      ErrorCode.IDEMPOTENCY_KEY_REUSED,
      ErrorCode.IDEMPOTENCY_IN_PROGRESS,
      ErrorCode.UPSTREAM_ERROR,
      ErrorCode.INTERNAL_ERROR,
    ),
  );

/** What cancelling takes and answers, the merchant's call and the dashboard's alike. */
export const CancelDocs = () =>
  applyDecorators(
    PAYMENT_ID,
    ApiEnvelopeResponse(200, PaymentView, { example: CANCELLED_PAYMENT_EXAMPLE }),
    ApiErrorResponses(ErrorCode.NOT_FOUND, ErrorCode.PAYMENT_STATE_CONFLICT, ErrorCode.OPERATION_NOT_SUPPORTED, ErrorCode.UPSTREAM_ERROR, ErrorCode.INTERNAL_ERROR),
  );

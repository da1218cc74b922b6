import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, type ApiResponseOptions, getSchemaPath } from '@nestjs/swagger';
import { ERROR_TABLE, ErrorCode } from '../errors/error-codes';

/** The request id every example shows (the same in `X-Request-Id`). */
const EXAMPLE_REQUEST_ID = '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11';

/** One invalid field of a VALIDATION_ERROR. */
export class ApiFieldError {
  @ApiProperty({ example: 'amount', description: 'The field, as a path into the body (`credentials.client_id`), or `body`, `path`, a query parameter.' }) field: string;
  @ApiProperty({ example: 'amount must be greater than 0 with at most 2 decimal places' }) message: string;
}

/** `details` of VALIDATION_ERROR: every invalid field at once. */
export class ApiValidationDetails {
  @ApiProperty({ type: [ApiFieldError] }) fields: ApiFieldError[];
}

/** `details` of a provider failure (admin API only: a merchant never sees a PSP's text). */
export class ApiProviderDetails {
  @ApiPropertyOptional({ example: 'ValorDevolucaoInvalido', description: "The PSP's own error code." }) provider_code?: string;
  @ApiPropertyOptional({ example: 'O valor excede o saldo devolvível do Pix.', description: "The PSP's own message." }) provider_message?: string;
}

/** `details` of REFUND_EXCEEDS_AVAILABLE. */
export class ApiRefundAvailableDetails {
  @ApiProperty({ example: 4, description: 'What is left to refund, in reais.' }) available: number;
}

/** `details` of PAYMENT_STATE_CONFLICT. */
export class ApiPaymentStateDetails {
  @ApiProperty({ example: 'paid', description: "The payment's status, which does not allow the operation." }) status: string;
}

/** `details` of CONFLICT when a provider account is still in use. */
export class ApiAccountInUseDetails {
  @ApiProperty({ type: [String], example: ['mer_3kTMd9Q2xLr8VbN1cZp4Wf7A'], description: 'Merchants that list the account.' }) merchant_ids: string[];
  @ApiProperty({ example: 2, description: 'Pending payments charged at the account.' }) pending_payments: number;
}

const DETAIL_MODELS = [ApiValidationDetails, ApiProviderDetails, ApiRefundAvailableDetails, ApiPaymentStateDetails, ApiAccountInUseDetails];
/** The shapes of `details`: each closed, so that a `details` is exactly one of them (api-document.ts). */
export const DETAIL_MODEL_NAMES: readonly string[] = DETAIL_MODELS.map((model) => model.name);

/** OpenAPI models of the envelope, so generated clients know every body's shape. */
export class ApiErrorBody {
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode', example: ErrorCode.VALIDATION_ERROR }) code: ErrorCode;
  @ApiProperty({ example: 'The request is invalid.' }) message: string;
  @ApiPropertyOptional({ description: 'HTTP status the provider answered with (PAYMENT_CREATE_FAILED, UPSTREAM_ERROR).', example: 503 }) upstream_status?: number;
  @ApiPropertyOptional({
    description:
      'Present for some codes: VALIDATION_ERROR `{fields:[{field,message}]}`; PAYMENT_CREATE_FAILED / UPSTREAM_ERROR (admin API) ' +
      '`{provider_code, provider_message}`; REFUND_EXCEEDS_AVAILABLE `{available}`; PAYMENT_STATE_CONFLICT `{status}`; ' +
      'CONFLICT on a provider account in use `{merchant_ids, pending_payments}`.',
    oneOf: DETAIL_MODELS.map((model) => ({ $ref: getSchemaPath(model) })),
  })
  details?: ApiValidationDetails | ApiProviderDetails | ApiRefundAvailableDetails | ApiPaymentStateDetails | ApiAccountInUseDetails;
}

export class ApiErrorEnvelope {
  @ApiProperty({ enum: [false], example: false }) success: false;
  @ApiProperty({ type: ApiErrorBody }) error: ApiErrorBody;
  @ApiProperty({ format: 'uuid', example: EXAMPLE_REQUEST_ID }) request_id: string;
  @ApiProperty({ example: 'sandbox', description: 'The provider that handled (or would handle) the call; DEFAULT_PROVIDER before a merchant is known.' }) provider: string;
}

export interface ErrorSample {
  /** The status, where the operation answers this code with another than the table's (a 422 VALIDATION_ERROR). */
  status?: number;
  message?: string;
  upstream_status?: number;
  details?: Record<string, unknown>;
  provider?: string;
}

/**
 * One realistic answer per code, as the gateway gives it: the message it really sends (the table's
 * unless the code's thrower words its own), details where the code has some, and the provider that
 * would be named (a PSP for upstream failures, DEFAULT_PROVIDER `sandbox` otherwise).
 */
const ERROR_SAMPLES: Record<ErrorCode, ErrorSample> = {
  [ErrorCode.MISSING_MERCHANT_KEY]: {},
  [ErrorCode.INVALID_MERCHANT_KEY]: {},
  [ErrorCode.VALIDATION_ERROR]: {
    details: { fields: [{ field: 'amount', message: 'amount must be greater than 0 with at most 2 decimal places' }] },
  },
  [ErrorCode.NOT_FOUND]: { message: 'Payment not found.' },
  [ErrorCode.PAYMENT_CREATE_FAILED]: { upstream_status: 503, provider: 'efi' },
  [ErrorCode.UPSTREAM_ERROR]: {
    upstream_status: 400,
    details: { provider_code: 'ValorDevolucaoInvalido', provider_message: 'O valor excede o saldo devolvível do Pix.' },
    provider: 'efi',
  },
  [ErrorCode.INVALID_SIGNATURE]: {},
  [ErrorCode.IDEMPOTENCY_KEY_REUSED]: {},
  [ErrorCode.IDEMPOTENCY_IN_PROGRESS]: {},
  [ErrorCode.UNAUTHORIZED]: {},
  [ErrorCode.FORBIDDEN]: { message: 'This change needs the X-CSRF-Token header of your dashboard session; reload the page and try again.' },
  [ErrorCode.RATE_LIMITED]: {},
  [ErrorCode.PAYLOAD_TOO_LARGE]: {},
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: {},
  [ErrorCode.CONFLICT]: {
    message:
      'The provider account pa_5hQm2Zt8KcV1xLr9BnW3dF7Y is still in use: merchants mer_3kTMd9Q2xLr8VbN1cZp4Wf7A list it; 2 pending payment(s) were charged through it. Deactivate it instead, or remove it from those merchants and wait for the payments to settle.',
    details: { merchant_ids: ['mer_3kTMd9Q2xLr8VbN1cZp4Wf7A'], pending_payments: 2 },
  },
  [ErrorCode.PAYMENT_STATE_CONFLICT]: { message: 'A paid payment cannot be cancelled: only pending payments can.', details: { status: 'paid' } },
  [ErrorCode.REFUND_EXCEEDS_AVAILABLE]: { details: { available: 4 } },
  [ErrorCode.OPERATION_NOT_SUPPORTED]: { message: 'This provider refunds only whole payments.', provider: 'efi' },
  [ErrorCode.SERVICE_UNAVAILABLE]: {},
  [ErrorCode.INTERNAL_ERROR]: {},
};

/** What a client sees for `code` (with `sample` in place of the table's own, for an operation that words it otherwise): the whole envelope. */
export function errorExample(code: ErrorCode, sample: ErrorSample = ERROR_SAMPLES[code]): Record<string, unknown> {
  return {
    success: false,
    error: {
      code,
      message: sample.message ?? ERROR_TABLE[code].message,
      ...(sample.upstream_status === undefined ? {} : { upstream_status: sample.upstream_status }),
      ...(sample.details ? { details: sample.details } : {}),
    },
    request_id: EXAMPLE_REQUEST_ID,
    provider: sample.provider ?? 'sandbox',
  };
}

/** A code, or a code with the example this operation really gives (`[ErrorCode.VALIDATION_ERROR, { details: { fields: [{ field: 'dueDate', … }] } }]`). */
export type DocumentedError = ErrorCode | readonly [ErrorCode, ErrorSample];

/**
 * A VALIDATION_ERROR's example naming the field this operation most often refuses, instead of the
 * table's `amount`.
 */
export function validationExample(field: string, message: string): readonly [ErrorCode, ErrorSample] {
  return [ErrorCode.VALIDATION_ERROR, { details: { fields: [{ field, message }] } }];
}

/** The error answers of one status: its codes in the description, an example of each. */
export function errorResponse(codes: readonly { code: ErrorCode; sample?: ErrorSample }[]): { description: string; content: Record<string, unknown> } {
  return {
    description: codes.map(({ code }) => `\`${code}\`: ${ERROR_TABLE[code].message}`).join(' / '),
    // Spelled out so that an error is JSON even on an operation that produces text (GET /metrics).
    content: {
      'application/json': {
        schema: { $ref: getSchemaPath(ApiErrorEnvelope) },
        examples: Object.fromEntries(codes.map(({ code, sample }) => [code, { summary: code, value: errorExample(code, sample ?? ERROR_SAMPLES[code]) }])),
      },
    },
  };
}

/** The status a code is answered with (`sample.status` where an operation answers it otherwise). */
export function errorStatus(code: ErrorCode, sample?: ErrorSample): number {
  return sample?.status ?? ERROR_TABLE[code].status;
}

/** Documents error answers from the one table: status, code and message, with an example of each code. */
export function ApiErrorResponses(...documented: DocumentedError[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, { code: ErrorCode; sample: ErrorSample }[]>();
  for (const entry of documented) {
    const [code, sample] = typeof entry === 'string' ? [entry, ERROR_SAMPLES[entry]] : entry;
    const status = errorStatus(code, sample);
    byStatus.set(status, [...(byStatus.get(status) ?? []), { code, sample }]);
  }
  return applyDecorators(
    ApiExtraModels(ApiErrorEnvelope, ...DETAIL_MODELS),
    ...[...byStatus].map(([status, list]) => ApiResponse({ status, ...errorResponse(list) } as ApiResponseOptions)),
  );
}

/** Documents a success answer whose `data` is `model` (or an array of it), with an example of the whole envelope. */
export function ApiEnvelopeResponse(
  status: number,
  model: Type<unknown>,
  options: { isArray?: boolean; description?: string; example?: unknown; provider?: string } = {},
): MethodDecorator {
  const data = options.isArray ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) };
  return applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description: options.description ?? 'Success',
      schema: {
        type: 'object',
        required: ['success', 'data', 'request_id', 'provider'],
        ...(options.example === undefined ? {} : { example: { success: true, data: options.example, request_id: EXAMPLE_REQUEST_ID, provider: options.provider ?? 'sandbox' } }),
        properties: {
          success: { type: 'boolean', enum: [true], example: true },
          data,
          request_id: { type: 'string', format: 'uuid', example: EXAMPLE_REQUEST_ID },
          provider: { type: 'string', example: 'sandbox' },
        },
      },
    }),
  );
}

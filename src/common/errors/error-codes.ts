/**
 * The one error table (rendered in docs/api.md, Errors): every code the API can answer with,
 * its HTTP status and its default message. Nothing else in the code base picks a status for an error.
 */
export enum ErrorCode {
  MISSING_MERCHANT_KEY = 'MISSING_MERCHANT_KEY',
  INVALID_MERCHANT_KEY = 'INVALID_MERCHANT_KEY',
  VALIDATION_ERROR = 'VALIDATION_ERROR',
  NOT_FOUND = 'NOT_FOUND',
  PAYMENT_CREATE_FAILED = 'PAYMENT_CREATE_FAILED',
  UPSTREAM_ERROR = 'UPSTREAM_ERROR',
  INVALID_SIGNATURE = 'INVALID_SIGNATURE',
  IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED',
  IDEMPOTENCY_IN_PROGRESS = 'IDEMPOTENCY_IN_PROGRESS',
  UNAUTHORIZED = 'UNAUTHORIZED',
  FORBIDDEN = 'FORBIDDEN',
  RATE_LIMITED = 'RATE_LIMITED',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  CONFLICT = 'CONFLICT',
  PAYMENT_STATE_CONFLICT = 'PAYMENT_STATE_CONFLICT',
  REFUND_EXCEEDS_AVAILABLE = 'REFUND_EXCEEDS_AVAILABLE',
  OPERATION_NOT_SUPPORTED = 'OPERATION_NOT_SUPPORTED',
  SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE',
  INTERNAL_ERROR = 'INTERNAL_ERROR',
}

export interface ErrorDefinition {
  readonly status: number;
  readonly message: string;
}

export const ERROR_TABLE: Readonly<Record<ErrorCode, ErrorDefinition>> = {
  [ErrorCode.MISSING_MERCHANT_KEY]: { status: 401, message: 'The X-Merchant-Key header is required.' },
  [ErrorCode.INVALID_MERCHANT_KEY]: { status: 401, message: 'The merchant key is invalid, revoked, or belongs to an inactive merchant.' },
  [ErrorCode.VALIDATION_ERROR]: { status: 400, message: 'The request is invalid.' },
  [ErrorCode.NOT_FOUND]: { status: 404, message: 'The resource was not found.' },
  [ErrorCode.PAYMENT_CREATE_FAILED]: { status: 502, message: 'The payment provider could not create the payment.' },
  [ErrorCode.UPSTREAM_ERROR]: { status: 502, message: 'The payment provider returned an error.' },
  [ErrorCode.INVALID_SIGNATURE]: { status: 401, message: 'The webhook signature is missing or invalid.' },
  [ErrorCode.IDEMPOTENCY_KEY_REUSED]: { status: 422, message: 'This Idempotency-Key was already used with a different request.' },
  [ErrorCode.IDEMPOTENCY_IN_PROGRESS]: { status: 409, message: 'A request with this Idempotency-Key is still being processed.' },
  [ErrorCode.UNAUTHORIZED]: { status: 401, message: 'A valid admin bearer token or session is required.' },
  [ErrorCode.FORBIDDEN]: { status: 403, message: 'This request is not allowed.' },
  [ErrorCode.RATE_LIMITED]: { status: 429, message: 'Too many requests; retry after the time in Retry-After.' },
  [ErrorCode.PAYLOAD_TOO_LARGE]: { status: 413, message: 'The request body is larger than 64 KiB.' },
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: { status: 415, message: 'The request body must be application/json.' },
  [ErrorCode.CONFLICT]: { status: 409, message: 'The request conflicts with the current state of the resource.' },
  [ErrorCode.PAYMENT_STATE_CONFLICT]: { status: 409, message: "The payment's status does not allow this operation." },
  [ErrorCode.REFUND_EXCEEDS_AVAILABLE]: { status: 422, message: 'The refund is larger than what is left to refund.' },
  [ErrorCode.OPERATION_NOT_SUPPORTED]: { status: 422, message: "The payment's provider cannot do this." },
  [ErrorCode.SERVICE_UNAVAILABLE]: { status: 503, message: 'The service is temporarily unavailable.' },
  [ErrorCode.INTERNAL_ERROR]: { status: 500, message: 'An unexpected error occurred.' },
};

import { ERROR_TABLE, ErrorCode } from './error-codes';

export interface FieldError {
  field: string;
  message: string;
}

export interface AppErrorOptions {
  message?: string;
  details?: Record<string, unknown>;
  /** HTTP status the upstream provider answered with, for upstream failures. */
  upstreamStatus?: number;
  /** Extra response headers (e.g. Retry-After). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The only error type the application throws on purpose. Its HTTP status comes from the error
 * table; anything else that reaches the global filter is an unexpected fault (500).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  readonly upstreamStatus?: number;
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? ERROR_TABLE[code].message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.upstreamStatus = options.upstreamStatus;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_TABLE[this.code].status;
  }

  static validation(fields: FieldError[], message?: string): AppError {
    return new AppError(ErrorCode.VALIDATION_ERROR, { message, details: { fields } });
  }

  static notFound(message?: string): AppError {
    return new AppError(ErrorCode.NOT_FOUND, { message });
  }
}

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
  /**
   * 422 instead of the table's 400 for a VALIDATION_ERROR about what the request asks of the
   * merchant's set-up rather than its shape (a recurrence for a merchant none of whose providers
   * offers Pix Automático: docs/api.md).
   */
  status?: 422;
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
  private readonly statusOverride?: number;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? ERROR_TABLE[code].message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
    this.upstreamStatus = options.upstreamStatus;
    this.headers = options.headers;
    this.statusOverride = options.status;
  }

  get status(): number {
    return this.statusOverride ?? ERROR_TABLE[this.code].status;
  }

  static validation(fields: FieldError[], message?: string): AppError {
    return new AppError(ErrorCode.VALIDATION_ERROR, { message, details: { fields } });
  }

  static notFound(message?: string): AppError {
    return new AppError(ErrorCode.NOT_FOUND, { message });
  }
}

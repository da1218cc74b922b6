import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, Optional } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { AppError } from '../errors/app-error';
import { providerNamedBy } from '../errors/answer-provider';
import { DatabaseOutage } from '../errors/database-outage';
import { databaseUnavailableError, isDatabaseUnavailable } from '../errors/database-unavailable';
import { ErrorCode } from '../errors/error-codes';
import { ErrorEnvelope } from './envelope';
import { requestState } from './request-state';

/** HTTP statuses that Nest or Fastify raise on their own, and the code each one means here. */
const STATUS_TO_CODE: Readonly<Record<number, ErrorCode>> = {
  400: ErrorCode.VALIDATION_ERROR,
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.NOT_FOUND,
  409: ErrorCode.CONFLICT,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCode.RATE_LIMITED,
  503: ErrorCode.SERVICE_UNAVAILABLE,
};

/**
 * Turns anything thrown into an AppError. Framework errors with a known 4xx status keep their
 * meaning (malformed JSON is a validation error, an oversized body 413); a failure to reach the
 * database is SERVICE_UNAVAILABLE (503, Retry-After: src/common/errors/database-unavailable.ts);
 * everything else, including any error we did not expect, is INTERNAL_ERROR (500), never a 400.
 */
export function toAppError(exception: unknown): AppError {
  if (exception instanceof AppError) return exception;
  if (exception instanceof HttpException) {
    const code = STATUS_TO_CODE[exception.getStatus()];
    if (code === ErrorCode.NOT_FOUND) return new AppError(code);
    if (code) return new AppError(code, { message: exception.getStatus() === 400 ? exception.message : undefined });
    return new AppError(ErrorCode.INTERNAL_ERROR, { cause: exception });
  }
  const fastifyError = exception as { code?: unknown; statusCode?: unknown; message?: unknown };
  if (typeof fastifyError?.code === 'string' && fastifyError.code.startsWith('FST_') && typeof fastifyError.statusCode === 'number') {
    const framework = frameworkError(fastifyError.code, fastifyError.statusCode, String(fastifyError.message));
    if (framework) return framework;
  }
  if (exception instanceof SyntaxError && (exception as { statusCode?: number }).statusCode === 400) {
    return AppError.validation([{ field: 'body', message: exception.message }], 'The request body is not valid JSON.');
  }
  if (isDatabaseUnavailable(exception)) return databaseUnavailableError(exception);
  return new AppError(ErrorCode.INTERNAL_ERROR, { cause: exception });
}

/**
 * Fastify's own 4xx errors in the table's words. A path parameter over the router's limit cannot
 * name anything that exists (ids are short), so it is NOT_FOUND like any id of the wrong shape; a
 * URL that is not validly percent-encoded, or a body Fastify could not read, is VALIDATION_ERROR;
 * any other 4xx is the client's fault too, and VALIDATION_ERROR is the nearest code. Undefined for
 * anything else (a 5xx stays one).
 */
export function frameworkError(fstCode: string, status: number, message: string): AppError | undefined {
  if (status < 400 || status >= 500) return undefined;
  if (fstCode === 'FST_ERR_MAX_PARAM_LENGTH' || status === 414) return AppError.notFound();
  if (fstCode === 'FST_ERR_BAD_URL') return AppError.validation([{ field: 'path', message: 'The URL is not validly percent-encoded.' }]);
  const code = STATUS_TO_CODE[status];
  if (code === ErrorCode.VALIDATION_ERROR || code === undefined) {
    const invalidJson = fstCode === 'FST_ERR_CTP_INVALID_JSON_BODY' || fstCode === 'FST_ERR_CTP_EMPTY_JSON_BODY';
    return AppError.validation([{ field: 'body', message }], invalidJson ? 'The request body is not valid JSON.' : 'The request could not be read.');
  }
  return new AppError(code);
}

/** The error envelope (docs/api.md, The envelope) for one request. */
export function errorEnvelope(error: AppError, requestId: string, provider: string): ErrorEnvelope {
  return {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.upstreamStatus !== undefined ? { upstream_status: error.upstreamStatus } : {}),
      ...(error.details ? { details: error.details } : {}),
    },
    request_id: requestId,
    provider,
  };
}

/** The one global filter: renders every failure as the error envelope on Fastify's reply. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  constructor(
    private readonly config: AppConfig,
    /** Told of each 503 for the database's absence, which it logs once per outage instead (absent where a filter renders only AppErrors). */
    @Optional() private readonly outage?: DatabaseOutage,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const req = http.getRequest<FastifyRequest>();
    const error = toAppError(exception);
    const state = requestState(req);
    // A service names the provider that handles the request on what it throws; the state keeps it for the answer.
    state.provider = providerNamedBy(exception) ?? state.provider;
    if (error.code === ErrorCode.SERVICE_UNAVAILABLE && isDatabaseUnavailable(error.cause)) this.outage?.answered503(error.cause);
    if (error.status >= 500 && error.code !== ErrorCode.PAYMENT_CREATE_FAILED && error.code !== ErrorCode.UPSTREAM_ERROR && error.code !== ErrorCode.SERVICE_UNAVAILABLE) {
      const cause = error.cause ?? exception;
      // The path without its query string: a query may carry a token or a document.
      const path = req.url.split('?', 1)[0];
      this.logger.error({ request_id: state.requestId, method: req.method, path, err: cause }, `Unexpected error on ${req.method} ${path} (request ${state.requestId})`);
    }
    const body = errorEnvelope(error, state.requestId, state.provider ?? this.config.defaultProvider);
    if (reply.sent) return;
    reply.status(error.status);
    reply.header('x-request-id', state.requestId);
    for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
    reply.type('application/json; charset=utf-8').send(body);
  }
}

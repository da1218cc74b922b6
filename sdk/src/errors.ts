import type { ApiErrorBody, ApiErrorEnvelope, ApiFieldError, ErrorCode } from './generated/types.gen.js';

/** What the gateway said about a failed call, or what the SDK knows when no answer came. */
export interface PixGatewayErrorFields {
  status: number;
  code: ErrorCode | 'NETWORK_ERROR';
  message: string;
  details?: ApiErrorBody['details'];
  upstreamStatus?: number;
  requestId?: string;
  provider?: string;
  retryAfter?: number;
}

/**
 * A call the gateway refused or could not carry out: its error envelope (docs/api.md, "The
 * envelope"), with the HTTP status and `Retry-After`. Thrown once the SDK's retries are spent, or
 * at once for an answer a retry would not change (any other 4xx).
 */
export class PixGatewayError extends Error {
  override readonly name: string = 'PixGatewayError';
  /** The HTTP status; 0 when no answer arrived (PixGatewayNetworkError). */
  readonly status: number;
  /** The envelope's `error.code`; `NETWORK_ERROR` only on a PixGatewayNetworkError. */
  readonly code: ErrorCode | 'NETWORK_ERROR';
  /** The envelope's `error.details`: `{fields: [{field, message}]}` for VALIDATION_ERROR, `{available}` for REFUND_EXCEEDS_AVAILABLE… */
  readonly details: ApiErrorBody['details'];
  /** What the provider answered, for PAYMENT_CREATE_FAILED and UPSTREAM_ERROR, when it answered. */
  readonly upstreamStatus: number | undefined;
  /** The envelope's `request_id` (or the `X-Request-Id` header): quote it to the gateway's operator. */
  readonly requestId: string | undefined;
  /** The provider that handled, or would have handled, the call. */
  readonly provider: string | undefined;
  /** Seconds the gateway asked to wait (`Retry-After`), when it did. */
  readonly retryAfter: number | undefined;

  constructor(fields: PixGatewayErrorFields, options?: { cause?: unknown }) {
    super(fields.message, options);
    this.status = fields.status;
    this.code = fields.code;
    this.details = fields.details;
    this.upstreamStatus = fields.upstreamStatus;
    this.requestId = fields.requestId;
    this.provider = fields.provider;
    this.retryAfter = fields.retryAfter;
  }

  /** The fields a VALIDATION_ERROR names (`{field, message}` each); empty for any other error. */
  get fieldErrors(): ApiFieldError[] {
    const details = this.details;
    return details && 'fields' in details ? details.fields : [];
  }
}

/** No answer reached the SDK: the connection failed or was cut, or the attempt timed out (`cause` says which). */
export class PixGatewayNetworkError extends PixGatewayError {
  override readonly name: string = 'PixGatewayNetworkError';
  declare readonly code: 'NETWORK_ERROR';

  constructor(message: string, cause: unknown) {
    super({ status: 0, code: 'NETWORK_ERROR', message }, { cause });
  }
}

/** A webhook whose signature, timestamp or body does not check out: answer it 4xx and do not act on it. */
export class PixGatewayWebhookError extends Error {
  override readonly name: string = 'PixGatewayWebhookError';
}

/** The error a failed answer stands for: its envelope when it has one, else what its status says. */
export function answerError(response: Response, body: unknown): PixGatewayError {
  const envelope = isErrorEnvelope(body) ? body : undefined;
  const excerpt = typeof body === 'string' ? `: ${body.slice(0, 200)}` : '';
  return new PixGatewayError({
    status: response.status,
    // An answer without the envelope came from something in front of the gateway (a proxy's page).
    code: envelope?.error.code ?? (response.status >= 500 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR'),
    message: envelope?.error.message ?? `HTTP ${response.status} without the gateway's envelope${excerpt}`,
    details: envelope?.error.details,
    upstreamStatus: envelope?.error.upstream_status,
    requestId: envelope?.request_id ?? response.headers.get('x-request-id') ?? undefined,
    provider: envelope?.provider,
    retryAfter: retryAfterSeconds(response.headers.get('retry-after')),
  });
}

function isErrorEnvelope(body: unknown): body is ApiErrorEnvelope {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const error = body.error;
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string';
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

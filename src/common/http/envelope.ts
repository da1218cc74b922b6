import { ErrorCode } from '../errors/error-codes';

/** Body of every successful response (docs/api.md, The envelope). */
export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  request_id: string;
  provider: string;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  upstream_status?: number;
  details?: Record<string, unknown>;
}

/** Body of every failed response. */
export interface ErrorEnvelope {
  success: false;
  error: ErrorBody;
  request_id: string;
  provider: string;
}

/**
 * What a service answers a route with: the data, and the provider that handled it, which the
 * envelope names (the controller writes it into the request's state: answerData()). Undefined when
 * the service learnt no provider, and the envelope names the one the request started with.
 */
export interface ProviderAnswer<T> {
  provider: string | undefined;
  data: T;
}

export function successEnvelope<T>(data: T, requestId: string, provider: string): SuccessEnvelope<T> {
  return { success: true, data, request_id: requestId, provider };
}

/**
 * A response a handler has already rendered in full, sent as it is: an idempotent replay returns
 * the stored status, headers and body (with its original request id) rather than a new envelope.
 */
export class PreparedResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

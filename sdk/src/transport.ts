import { answerError, PixGatewayError, PixGatewayNetworkError } from './errors.js';

/** What every call resolves to: the envelope's `data`, typed, and what the envelope says about the call. */
export interface PixGatewayResponse<T> {
  data: T;
  /** The envelope's `request_id` (also the `X-Request-Id` header): quote it to the gateway's operator. */
  requestId: string;
  /** The provider that handled the call (`sandbox`, `pix-api`, `mercadopago`, a bank's profile). */
  provider: string;
  /** The HTTP status (201 for a creation, 200 otherwise). */
  status: number;
  /** True when the gateway answered with the stored answer of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

/** How hard a call tries. */
export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  /** Each attempt's deadline, from sending to the whole answer read. */
  timeoutMs: number;
}

interface Envelope {
  success: true;
  data: unknown;
  request_id: string;
  provider: string;
}

/** What a generated function resolves to (the fetch client without throwOnError): `response` is missing when none came. */
interface Sent<E extends Envelope> {
  data?: E | undefined;
  error?: unknown;
  response?: Response | undefined;
}

/** Backoff before retry n (0-based) when the gateway gave no Retry-After: 0.5 s doubling, capped at 8 s. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;
/** A Retry-After longer than this is not waited out inside a call: the error is thrown with `retryAfter` for the caller to plan. */
const RETRY_AFTER_CAP_SECONDS = 60;

/**
 * Sends one operation, retrying what a retry can fix. `attempt` is called once per try with that
 * try's deadline, and must send the same request each time: a POST's Idempotency-Key is chosen
 * before the first try (sdk/src/index.ts), so the gateway sees one logical request and answers a
 * retry of a completed one with the stored answer (docs/api.md, Idempotency).
 */
export async function send<E extends Envelope>(attempt: (signal: AbortSignal) => Promise<Sent<E>>, policy: RetryPolicy): Promise<PixGatewayResponse<E['data']>> {
  for (let retry = 0; ; retry++) {
    const failure = await once(attempt, policy.timeoutMs);
    if (!(failure instanceof PixGatewayError)) return failure;
    const wait = retry < policy.maxRetries ? retryDelayMs(failure, retry) : undefined;
    if (wait === undefined) throw failure;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function once<E extends Envelope>(attempt: (signal: AbortSignal) => Promise<Sent<E>>, timeoutMs: number): Promise<PixGatewayResponse<E['data']> | PixGatewayError> {
  let sent: Sent<E>;
  try {
    sent = await attempt(AbortSignal.timeout(timeoutMs));
  } catch (error) {
    // The generated client hands back a failed fetch as `error`; what still throws is reading the
    // answer's body (cut off, or past the deadline).
    return networkError(error, timeoutMs);
  }
  const { data, error, response } = sent;
  if (response === undefined) return networkError(error, timeoutMs);
  if (!response.ok || !isEnvelope(data)) return answerError(response, error ?? data);
  return {
    data: data.data,
    requestId: data.request_id,
    provider: data.provider,
    status: response.status,
    replayed: response.headers.get('idempotent-replayed') === 'true',
  };
}

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && (body as { success?: unknown }).success === true && 'data' in body;
}

function networkError(cause: unknown, timeoutMs: number): PixGatewayNetworkError {
  const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new PixGatewayNetworkError(timedOut ? `No answer within ${timeoutMs} ms` : `The request failed before an answer arrived: ${reason}`, cause);
}

/**
 * How long to wait before retrying after `error`, or undefined when a retry would not help: only
 * a failed connection, 409 IDEMPOTENCY_IN_PROGRESS (the first request with the key is still
 * running), 429, 502 and 503 are retried. Retry-After is honoured as given; otherwise the wait
 * grows exponentially with jitter, so clients that failed together do not come back together.
 */
export function retryDelayMs(error: PixGatewayError, retry: number, random: () => number = Math.random): number | undefined {
  const retryable =
    error instanceof PixGatewayNetworkError ||
    error.status === 429 ||
    error.status === 502 ||
    error.status === 503 ||
    (error.status === 409 && error.code === 'IDEMPOTENCY_IN_PROGRESS');
  if (!retryable) return undefined;
  if (error.retryAfter !== undefined) return error.retryAfter <= RETRY_AFTER_CAP_SECONDS ? error.retryAfter * 1000 : undefined;
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

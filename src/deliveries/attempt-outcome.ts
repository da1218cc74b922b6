import type { DeliveryStatus } from './webhook-delivery.entity';
import { nextRetryDelayMs, parseRetryAfter, type RetryPolicy } from '../domain/retry-schedule';

/** What one attempt produced, whether or not the merchant answered. */
export interface AttemptResult {
  statusCode: number | null;
  /** Why there was no usable answer (network, timeout, refused URL…); null when the merchant answered. */
  error: string | null;
  latencyMs: number | null;
  /** The start of the answer's body, kept with the attempt; null when there was no answer. */
  bodyExcerpt?: string | null;
  retryAfter?: string | string[];
  location?: string;
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  /**
   * For `pending`: how long until the next attempt. A wait, not a time: recording the attempt
   * places it on the gateway's Clock, the time due-ness is judged by (see
   * WebhookDeliveryRepository.recordAttemptsIfLeaseHeld).
   */
  retryInMs: number | null;
  /** The text kept as the attempt's and the delivery's last error. */
  error: string | null;
}

const isSuccess = (code: number | null): boolean => code !== null && code >= 200 && code < 300;

/**
 * 2xx is delivered; 410 Gone means the merchant wants no more of these, so the
 * delivery is failed at once (an operator can still redeliver); anything else is retried on the
 * schedule, no sooner than the merchant's Retry-After, and failed once the schedule is used up.
 * `attempt` is this attempt's number (1 for the first); `now` dates a Retry-After given as an HTTP date.
 */
export function decideOutcome(attempt: number, result: AttemptResult, policy: RetryPolicy, now: Date): AttemptOutcome {
  if (isSuccess(result.statusCode)) return { status: 'delivered', retryInMs: null, error: null };
  const error = result.error ?? answerError(result);
  if (result.statusCode === 410) return { status: 'failed', retryInMs: null, error };
  const delay = nextRetryDelayMs(attempt, policy, parseRetryAfter(result.retryAfter, now));
  if (delay === null) return { status: 'failed', retryInMs: null, error };
  return { status: 'pending', retryInMs: delay, error };
}

function answerError(result: AttemptResult): string | null {
  const code = result.statusCode;
  if (code === null) return null;
  if (code >= 300 && code < 400) {
    const to = result.location ? ` to ${result.location.slice(0, 200)}` : '';
    return `redirect${to} not followed: the webhook URL must answer 2xx itself`;
  }
  if (code === 410) return 'HTTP 410 Gone: the merchant asked for no more deliveries';
  return `HTTP ${code}`;
}

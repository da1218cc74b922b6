import { Injectable, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { AppError } from '../errors/app-error';
import { routeOf } from '../http/access-log';
import { consume, LimiterStore, rateLimited } from './limiter-store';

/** Failed authentications one client address may make per window before it is refused. */
export const AUTH_FAILURES_PER_WINDOW = 10;
export const AUTH_FAILURE_WINDOW_SECONDS = 60;

/** The credential a failed authentication presented (logged, never the credential itself). */
/** `provider_callback`: a callback to /webhooks that the provider's scheme or its PSP did not confirm. */
export type CredentialKind = 'merchant_key' | 'admin_token' | 'metrics_token' | 'dashboard_login' | 'provider_callback';

/**
 * Failed authentication, throttled per client address: wrong merchant keys, admin tokens, metrics
 * tokens and dashboard passwords all count together, and after AUTH_FAILURES_PER_WINDOW of them in
 * AUTH_FAILURE_WINDOW_SECONDS (counted from the first) the address gets 429 RATE_LIMITED with
 * Retry-After on every authenticated route until the window has passed, right credentials included.
 * A missing credential is not a failure.
 *
 * How a guard uses it: `assertNotBlocked(req)` before looking at the credential; on a wrong one,
 * `recordFailure(req, kind)` and then its own 401. recordFailure counts atomically in the store and
 * itself throws the 429 when this failure is past the limit, so attempts sent in parallel (which all
 * passed assertNotBlocked together) still count one by one: at most the limit of them see a 401.
 *
 * The address is `req.ip`, which honours X-Forwarded-For only from the proxies TRUST_PROXY names.
 */
@Injectable()
export class AuthFailuresService {
  private readonly logger = new Logger('Auth');
  private readonly limiter: RateLimiterAbstract;

  constructor(store: LimiterStore) {
    this.limiter = store.create({ name: 'auth-fail:', points: AUTH_FAILURES_PER_WINDOW, duration: AUTH_FAILURE_WINDOW_SECONDS });
  }

  /** 429 RATE_LIMITED with Retry-After when this address has used up its failures for the window. */
  async assertNotBlocked(req: FastifyRequest): Promise<void> {
    const res = await this.limiter.get(clientAddress(req));
    if (res && res.consumedPoints >= AUTH_FAILURES_PER_WINDOW) throw tooManyFailures(res.msBeforeNext);
  }

  /**
   * Counts one failed authentication of `kind` from this address and logs it at warn (address,
   * credential kind, route; never the presented secret). Throws 429 when the failure is past the
   * limit; otherwise returns and the caller answers its 401.
   */
  async recordFailure(req: FastifyRequest, kind: CredentialKind): Promise<void> {
    const ip = clientAddress(req);
    const { allowed, res } = await consume(this.limiter, ip);
    this.logger.warn(
      { ip, credential: kind, method: req.method, route: routeOf(req), request_id: req.id, failures: res.consumedPoints, blocked: !allowed },
      'Authentication failed',
    );
    if (!allowed) throw tooManyFailures(res.msBeforeNext);
  }
}

function tooManyFailures(msBeforeNext: number): AppError {
  return rateLimited(msBeforeNext, 'Too many failed authentication attempts from this address.');
}

export function clientAddress(req: FastifyRequest): string {
  return req.ip ?? 'unknown';
}

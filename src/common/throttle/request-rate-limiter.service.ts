import { Injectable } from '@nestjs/common';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppConfig } from '../../config/app-config';
import { consume, LimiterStore, rateLimited } from './limiter-store';

/**
 * RATE_LIMIT_PER_SECOND per caller on the merchant API (0 turns it off): one noisy merchant cannot
 * starve the others. The caller is the merchant key the request authenticated with (its id, so no
 * string of garbage gets a fresh bucket), or the client address when no key was found. Shared by
 * every process through Redis when REDIS_URL is set.
 */
@Injectable()
export class RequestRateLimiter {
  private readonly limiter?: RateLimiterAbstract;

  constructor(config: AppConfig, store: LimiterStore) {
    if (config.rateLimitPerSecond > 0) this.limiter = store.create({ name: 'rate:', points: config.rateLimitPerSecond, duration: 1 });
  }

  /** Counts a request by the merchant key `apiKeyId`; 429 RATE_LIMITED with Retry-After past the limit. */
  forKey(apiKeyId: string): Promise<void> {
    return this.take(`key:${apiKeyId}`);
  }

  /** Counts a request whose key was missing or not found, by client address. */
  forAddress(ip: string): Promise<void> {
    return this.take(`ip:${ip}`);
  }

  private async take(key: string): Promise<void> {
    if (!this.limiter) return;
    const { allowed, res } = await consume(this.limiter, key);
    if (!allowed) throw rateLimited(res.msBeforeNext);
  }
}

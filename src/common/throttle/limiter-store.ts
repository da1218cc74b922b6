import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../../config/app-config';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-codes';

export interface LimiterOptions {
  /** Distinguishes this limiter's keys from the others' in the shared store. */
  name: string;
  /** Points (events) allowed per window. */
  points: number;
  /** Window length in seconds, counted from the first event of the window. */
  duration: number;
}

/** Prefix of every throttling key in Redis when AppConfig does not name one. */
export const DEFAULT_THROTTLE_KEY_PREFIX = 'gw:throttle:';

/**
 * Where the gateway's counters live: in this process's memory, or in Redis when REDIS_URL is set so
 * that every gateway process counts against the same numbers (rate limits, failed-auth throttling,
 * login back-off). Every limiter in the code base is built here, so they all share one store.
 *
 * Redis down: each Redis limiter has an in-memory twin (rate-limiter-flexible's insurance limiter)
 * that takes over at once while Redis is unreachable or slow, so authentication and rate limits keep
 * working per process instead of failing every request or letting everything through; the counts
 * made meanwhile are not copied back when Redis returns. Commands are not queued while the
 * connection is down and time out after a second, so a dead Redis never holds a request up.
 */
@Injectable()
export class LimiterStore implements OnModuleDestroy {
  private readonly logger = new Logger('Throttle');
  private readonly redis?: Redis;
  private readonly prefix: string;
  private redisHealthy = true;
  /** Every in-memory limiter made here (alone or as a Redis limiter's twin), emptied on shutdown. */
  private readonly memoryLimiters: RateLimiterMemory[] = [];

  constructor(config: AppConfig) {
    this.prefix = config.throttleKeyPrefix ?? DEFAULT_THROTTLE_KEY_PREFIX;
    if (config.redisUrl) {
      this.redis = new Redis(config.redisUrl.reveal(), {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: 1_000,
        connectTimeout: 2_000,
        // Keep trying to reconnect, at most every 5 s.
        retryStrategy: (times) => Math.min(times * 200, 5_000),
      });
      // Without a listener ioredis prints every connection error; say it once per outage instead.
      this.redis.on('error', (error: Error) => {
        if (!this.redisHealthy) return;
        this.redisHealthy = false;
        this.logger.warn({ error: error.message }, 'Redis unreachable: rate limits and throttling fall back to this process until it returns');
      });
      this.redis.on('ready', () => {
        if (this.redisHealthy) return;
        this.redisHealthy = true;
        this.logger.log('Redis reachable again: rate limits and throttling are shared again');
      });
    }
  }

  /** Whether counters are shared through Redis (REDIS_URL set). */
  get shared(): boolean {
    return this.redis !== undefined;
  }

  create(options: LimiterOptions): RateLimiterAbstract {
    const memory = new RateLimiterMemory({ keyPrefix: options.name, points: options.points, duration: options.duration });
    this.memoryLimiters.push(memory);
    if (!this.redis) return memory;
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: `${this.prefix}${options.name}`,
      points: options.points,
      duration: options.duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memory,
    });
  }

  async onModuleDestroy(): Promise<void> {
    // Each in-memory count holds a timer until its window ends (up to the longest window, minutes),
    // and the timer holds the limiter: an app closed inside a longer-lived process (a test run, a
    // host embedding the gateway) would stay in memory until then. The counts die with the app.
    for (const memory of this.memoryLimiters) {
      for (const { key } of memory.dump().storage) await memory.delete(key);
    }
    if (!this.redis) return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}

/** Whole seconds to tell a client in Retry-After: at least 1. */
export function retryAfterSeconds(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/**
 * 429 RATE_LIMITED with Retry-After for a wait of `msBeforeNext`. With `reason` the message is the
 * reason and how long to wait; without, the error table's own message.
 */
export function rateLimited(msBeforeNext: number, reason?: string): AppError {
  const seconds = retryAfterSeconds(msBeforeNext);
  return new AppError(ErrorCode.RATE_LIMITED, {
    ...(reason ? { message: `${reason} Try again in ${seconds} second${seconds === 1 ? '' : 's'}.` } : {}),
    headers: { 'retry-after': String(seconds) },
  });
}

/**
 * consume() rejects with a RateLimiterRes when the points are used up; anything else it rejects with
 * is a store fault, which must surface as one rather than pass for "limited".
 */
export async function consume(limiter: RateLimiterAbstract, key: string): Promise<{ allowed: boolean; res: RateLimiterRes }> {
  try {
    return { allowed: true, res: await limiter.consume(key) };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, res: rejection };
    throw rejection;
  }
}

import { Global, Module } from '@nestjs/common';
import { AuthFailuresService } from './auth-failures.service';
import { LimiterStore } from './limiter-store';
import { LoginBackoffService } from './login-backoff.service';
import { RequestRateLimiter } from './request-rate-limiter.service';

/**
 * Rate limits, failed-authentication throttling and sign-in back-off, with their counters in memory
 * or, with REDIS_URL, in Redis shared by every gateway process. Global: the guards that use it live
 * in several modules.
 */
@Global()
@Module({
  providers: [LimiterStore, AuthFailuresService, LoginBackoffService, RequestRateLimiter],
  exports: [LimiterStore, AuthFailuresService, LoginBackoffService, RequestRateLimiter],
})
export class ThrottleModule {}

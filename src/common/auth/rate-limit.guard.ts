import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { sha256 } from '../crypto/hash';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-codes';

/**
 * @nestjs/throttler, keyed by the presented merchant key (its hash, never the key itself) or, when
 * there is none, the client address: one noisy merchant cannot starve the others. The limit is
 * RATE_LIMIT_PER_SECOND per key per process (ThrottlerModule set up in AppModule). Answers 429
 * RATE_LIMITED; the throttler has already set Retry-After on the reply.
 */
@Injectable()
export class MerchantRateLimitGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, any>): Promise<string> {
    const header = req.headers?.['x-merchant-key'];
    return typeof header === 'string' && header ? `key:${sha256(header).toString('base64')}` : `ip:${req.ip}`;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new AppError(ErrorCode.RATE_LIMITED, { headers: { 'Retry-After': String(Math.max(1, detail.timeToBlockExpire)) } });
  }
}

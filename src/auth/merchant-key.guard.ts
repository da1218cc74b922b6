import { applyDecorators, CanActivate, ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { requestState } from '../common/http/request-state';
import { ApiErrorResponses } from '../common/http/api-docs';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { AuthFailuresService, clientAddress } from '../common/throttle/auth-failures.service';
import { RequestRateLimiter } from '../common/throttle/request-rate-limiter.service';
import { MERCHANT_KEY_RESOLVER, type MerchantKeyResolver } from './merchant-key-resolver';

/**
 * Authenticates `X-Merchant-Key` (through MERCHANT_KEY_RESOLVER, which the global AuthModule binds)
 * and puts the merchant on the request. Refuses an
 * address with too many failed authentications first (429), counts a wrong key as one, then applies
 * the per-key rate limit by the key's id, or by the client address when no key was found.
 */
@Injectable()
export class MerchantKeyGuard implements CanActivate {
  constructor(
    @Inject(MERCHANT_KEY_RESOLVER) private readonly auth: MerchantKeyResolver,
    private readonly config: AppConfig,
    private readonly failures: AuthFailuresService,
    private readonly rateLimit: RequestRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    await this.failures.assertNotBlocked(req);
    const header = req.headers['x-merchant-key'];
    let merchant;
    try {
      merchant = await this.auth.authenticate(Array.isArray(header) ? header[0] : header);
    } catch (error) {
      if (error instanceof AppError && (error.code === ErrorCode.INVALID_MERCHANT_KEY || error.code === ErrorCode.MISSING_MERCHANT_KEY)) {
        if (error.code === ErrorCode.INVALID_MERCHANT_KEY) await this.failures.recordFailure(req, 'merchant_key');
        await this.rateLimit.forAddress(clientAddress(req));
      }
      throw error;
    }
    await this.rateLimit.forKey(merchant.apiKeyId);
    req.merchant = merchant;
    const state = requestState(req);
    state.provider = merchant.provider ?? this.config.defaultProvider;
    state.principal = merchant.id;
    return true;
  }
}

/**
 * Authentication and the per-key rate limit; documents the 401/429 answers. The key is the
 * `merchantKey` security scheme only: declared also as a required header parameter, Swagger UI
 * would refuse to Execute after Authorize (it never fills a parameter from a scheme).
 */
export function MerchantAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(MerchantKeyGuard),
    ApiSecurity('merchantKey'),
    ApiErrorResponses(ErrorCode.MISSING_MERCHANT_KEY, ErrorCode.INVALID_MERCHANT_KEY, ErrorCode.RATE_LIMITED),
  );
}

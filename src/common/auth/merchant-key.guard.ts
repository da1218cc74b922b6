import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';
import { MerchantAuthService } from '../../merchants/merchant-auth.service';
import { requestState } from '../http/request-state';
import { MerchantRateLimitGuard } from './rate-limit.guard';
import { ApiErrorResponses } from '../http/api-docs';
import { ErrorCode } from '../errors/error-codes';

/** Authenticates `X-Merchant-Key` and puts the merchant on the request (spec section 5). */
@Injectable()
export class MerchantKeyGuard implements CanActivate {
  constructor(
    private readonly auth: MerchantAuthService,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const header = req.headers['x-merchant-key'];
    const merchant = await this.auth.authenticate(Array.isArray(header) ? header[0] : header);
    req.merchant = merchant;
    const state = requestState(req);
    state.provider = merchant.provider ?? this.config.defaultProvider;
    state.principal = merchant.id;
    return true;
  }
}

/** Rate limit per key, then authentication; documents the header and the 401/429 answers. */
export function MerchantAuth(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    UseGuards(MerchantRateLimitGuard, MerchantKeyGuard),
    ApiSecurity('merchantKey'),
    ApiHeader({ name: 'X-Merchant-Key', required: true, description: 'Merchant API key (`mk_live_…`), issued in the admin dashboard.' }),
    ApiErrorResponses(ErrorCode.MISSING_MERCHANT_KEY, ErrorCode.INVALID_MERCHANT_KEY, ErrorCode.RATE_LIMITED),
  );
}

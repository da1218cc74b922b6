import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedMerchant } from './merchant-key-resolver';

declare module 'fastify' {
  interface FastifyRequest {
    merchant?: AuthenticatedMerchant;
  }
}

/** The merchant the key guard authenticated. Only valid on routes behind `@MerchantAuth()`. */
export const CurrentMerchant = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedMerchant => {
  const merchant = ctx.switchToHttp().getRequest<FastifyRequest>().merchant;
  if (!merchant) throw new Error('@CurrentMerchant() used on a route without @MerchantAuth()');
  return merchant;
});

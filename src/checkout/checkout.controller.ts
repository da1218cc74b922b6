import { Controller, Get, Param, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../common/errors/app-error';
import { CheckoutAssets } from './checkout-assets';
import { CheckoutLimits } from './checkout-limits';
import { CheckoutStreams } from './checkout-streams';
import { CheckoutService } from './checkout.service';
import { PublicPageErrorFilter } from './public-page.filter';
import { languageOf, sendHtml, sendNotFound } from './public-pages';
import { messages } from './render/i18n';
import { checkoutPageHtml } from './render/pages';

/**
 * The payer's pages (docs/checkout.md): public, keyed by the page's token alone, HTML rendered
 * here, outside the API and its document.
 */
@ApiExcludeController()
@UseFilters(PublicPageErrorFilter)
@Controller('pay')
export class CheckoutController {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly limits: CheckoutLimits,
    private readonly assets: CheckoutAssets,
    private readonly streams: CheckoutStreams,
  ) {}

  /** The stylesheet and the script, named by their content's hash and cached for good. */
  @Get('assets/:file')
  asset(@Param('file') file: string, @Query('brand') brand: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    const asset = this.assets.find(file, brand);
    if (!asset) return sendNotFound(req, reply);
    const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    return reply
      .headers({
        'content-type': asset.type,
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        vary: 'Accept-Encoding',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      })
      .send(gzip ? asset.gzipped : asset.body);
  }

  @Get(':token')
  async page(@Param('token') token: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    await this.limits.take(req, 'page');
    const page = await this.checkout.page(token);
    if (!page) throw AppError.notFound();
    const lang = languageOf(req);
    return sendHtml(reply, 200, lang, checkoutPageHtml(page, messages(lang), this.assets.links(page.brand.color), new Date()));
  }

  /** The page's state as JSON: what its script polls while it has no stream. */
  @Get(':token/status')
  async status(@Param('token') token: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    await this.limits.take(req, 'status');
    const status = await this.checkout.status(token);
    if (!status) throw AppError.notFound();
    return reply.headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).send(JSON.stringify(status));
  }

  /** The page's state as server-sent events (CheckoutStreams). */
  @Get(':token/events')
  events(@Param('token') token: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.streams.open(req, reply, token);
  }

  /** Anything else under /pay: the same 404 page as an unknown token. */
  @Get(['', '*'])
  nothing(@Req() req: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return sendNotFound(req, reply);
  }
}

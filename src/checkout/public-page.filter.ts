import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../common/errors/error-codes';
import { routeOf } from '../common/http/access-log';
import { toAppError } from '../common/http/exception.filter';
import { failurePageHtml, languageOf, sendHtml, sendNotFound, waitPageHtml } from './public-pages';

/**
 * The public pages' failures are pages too, in the payer's language, never the API's envelope: the
 * one 404 page, a page asking to wait (429, Retry-After), a page saying to try again (503, or any
 * other failure as 500). An unexpected one is logged with the route's pattern, never its path,
 * which holds the token.
 */
@Catch()
export class PublicPageErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Checkout');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const req = http.getRequest<FastifyRequest>();
    if (reply.sent) return;
    const error = toAppError(exception);
    const lang = languageOf(req);
    const retryAfter = error.headers?.['retry-after'];
    if (error.code === ErrorCode.NOT_FOUND) return void sendNotFound(req, reply);
    if (error.code === ErrorCode.RATE_LIMITED) return void sendHtml(reply, 429, lang, waitPageHtml(lang, Number(retryAfter ?? 60)), { 'retry-after': retryAfter ?? '60' });
    if (error.code === ErrorCode.SERVICE_UNAVAILABLE) return void sendHtml(reply, 503, lang, failurePageHtml(lang, true), retryAfter ? { 'retry-after': retryAfter } : {});
    if (error.status >= 500) {
      this.logger.error({ request_id: req.id, method: req.method, route: routeOf(req), err: error.cause ?? exception }, `Unexpected error on ${req.method} ${routeOf(req)}`);
    }
    sendHtml(reply, error.status >= 500 ? 500 : error.status, lang, failurePageHtml(lang, false));
  }
}

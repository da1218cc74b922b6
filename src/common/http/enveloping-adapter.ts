import type { ServerOptions, ServerResponse } from 'node:http';
import { StreamableFile } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyServerOptions } from 'fastify';
import { PreparedResponse, successEnvelope } from './envelope';
import './no-envelope.decorator';
import { requestState } from './request-state';

/**
 * The Fastify adapter, sending what a handler returns in the success envelope. Nest hands every
 * handler's result to `reply()`; wrapping it here rather than in a global interceptor keeps each
 * request out of Nest's rxjs interceptor chain, which cost about a seventh of a read's CPU
 * (docs/performance.md, What was changed). A PreparedResponse is sent as it is, with its status and
 * headers; a route marked @NoEnvelope() answers with its own body; errors are the exception filter's.
 */
export class EnvelopingFastifyAdapter extends FastifyAdapter {
  constructor(
    options: FastifyServerOptions & { http: ServerOptions },
    private readonly defaultProvider: string,
  ) {
    super(options);
  }

  override reply(response: ServerResponse | FastifyReply, body: unknown, statusCode?: number): FastifyReply {
    // Node's own response (no Fastify request beside it), a file, or an error status: not a handler's answer to wrap.
    if (!('request' in response) || body instanceof StreamableFile || (statusCode !== undefined && statusCode >= 400)) return super.reply(response, body, statusCode);
    if (body instanceof PreparedResponse) return super.reply(response.headers(body.headers), body.body, body.status);
    if (response.request.routeOptions.config.gatewayNoEnvelope === true) return super.reply(response, body, statusCode);
    const state = requestState(response.request);
    return super.reply(response, successEnvelope(body ?? null, state.requestId, state.provider ?? this.defaultProvider), statusCode);
  }
}

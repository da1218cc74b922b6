import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../common/errors/app-error';
import { FINAL_STATES, type LiveStatus } from './checkout-page';
import { CheckoutLimits } from './checkout-limits';
import { CheckoutWatch } from './checkout-watch';
import { CheckoutService } from './checkout.service';

/** How long one stream stays open; the browser then opens another, which is counted and checked again. */
const STREAM_LIFETIME_MS = 10 * 60_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** How long a browser waits before it reconnects a lost stream (the page polls meanwhile). */
const RECONNECT_MS = 2_000;

/**
 * `GET /pay/:token/events`: the page's state as server-sent events, `event: status` with the
 * LiveStatus as data, first as it is and then at each change (CheckoutWatch). A final state ends
 * the stream (the page stops following); so do its lifetime and the process's shutdown.
 */
@Injectable()
export class CheckoutStreams {
  constructor(
    private readonly checkout: CheckoutService,
    private readonly watch: CheckoutWatch,
    private readonly limits: CheckoutLimits,
  ) {}

  async open(req: FastifyRequest, reply: FastifyReply, token: string): Promise<void> {
    await this.limits.take(req, 'stream');
    const status = await this.checkout.status(token);
    if (!status) throw AppError.notFound();
    const release = this.limits.holdStream(req);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    res.write(`retry: ${RECONNECT_MS}\n\n`);
    let ended = false;
    let stop = () => undefined as void;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      stop();
      release();
      if (!res.writableEnded) res.end();
    };
    const send = (live: LiveStatus) => {
      if (ended) return;
      res.write(`event: status\ndata: ${JSON.stringify(live)}\n\n`);
      if (FINAL_STATES.has(live.status)) end();
    };
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const lifetime = setTimeout(end, STREAM_LIFETIME_MS);
    res.on('close', end);
    res.on('error', end);
    send(status);
    if (!ended) stop = this.watch.follow(token, status, { onStatus: send, onEnd: end });
  }
}

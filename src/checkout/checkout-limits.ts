import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { clientAddress } from '../common/throttle/auth-failures.service';
import { consume, LimiterStore, rateLimited } from '../common/throttle/limiter-store';

/**
 * What one client address may ask of the public pages per minute. Payers behind one carrier's
 * address (mobile networks share them widely) must not be refused for each other, while one
 * address cannot read pages (or guess tokens) by the thousand.
 */
export const PAGE_REQUESTS_PER_MINUTE = 60;
/** A page open polls every 2 s (30 a minute) while its stream is down: ten pages' worth per address. */
export const STATUS_REQUESTS_PER_MINUTE = 300;
/** Streams an address may open per minute (a browser reconnects by itself after each end). */
export const STREAMS_OPENED_PER_MINUTE = 30;
/** Streams an address may hold open at once in one process. */
export const STREAMS_OPEN_PER_ADDRESS = 10;

export type PublicRequestKind = 'page' | 'status' | 'stream';

/**
 * The public pages' rate limits per client address (`req.ip`, which honours X-Forwarded-For only
 * from the proxies TRUST_PROXY names), counted in the gateway's limiter store: in memory, or in
 * Redis shared by every process when REDIS_URL is set. The cap on streams held open is this
 * process's own count, exact and never left behind by a process that died.
 */
@Injectable()
export class CheckoutLimits {
  private readonly limiters: Record<PublicRequestKind, RateLimiterAbstract>;
  private readonly openStreams = new Map<string, number>();

  constructor(store: LimiterStore) {
    this.limiters = {
      page: store.create({ name: 'checkout-page:', points: PAGE_REQUESTS_PER_MINUTE, duration: 60 }),
      status: store.create({ name: 'checkout-status:', points: STATUS_REQUESTS_PER_MINUTE, duration: 60 }),
      stream: store.create({ name: 'checkout-stream:', points: STREAMS_OPENED_PER_MINUTE, duration: 60 }),
    };
  }

  /** Counts a request of `kind` from its address; throws 429 RATE_LIMITED (with Retry-After) past the limit. */
  async take(req: FastifyRequest, kind: PublicRequestKind): Promise<void> {
    const { allowed, res } = await consume(this.limiters[kind], clientAddress(req));
    if (!allowed) throw rateLimited(res.msBeforeNext);
  }

  /**
   * Holds one of the address's open streams; throws 429 when it holds STREAMS_OPEN_PER_ADDRESS
   * already. Returns the function that gives it back (once, however often it is called).
   */
  holdStream(req: FastifyRequest): () => void {
    const address = clientAddress(req);
    const open = this.openStreams.get(address) ?? 0;
    if (open >= STREAMS_OPEN_PER_ADDRESS) throw rateLimited(60_000);
    this.openStreams.set(address, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.openStreams.get(address) ?? 1) - 1;
      if (left > 0) this.openStreams.set(address, left);
      else this.openStreams.delete(address);
    };
  }
}

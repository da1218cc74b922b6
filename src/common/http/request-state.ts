import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** What the gateway keeps about one request while it runs. */
export interface GatewayRequestState {
  /** UUID v4; also the `X-Request-Id` response header. */
  requestId: string;
  /** Provider that handles (or would handle) the call; `DEFAULT_PROVIDER` until something knows better. */
  provider?: string;
  /** Who the request authenticated as, for the access log: a merchant id, or `admin`. */
  principal?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    gateway: GatewayRequestState;
    /** The raw body bytes, kept for routes that verify signatures over them. */
    rawBody?: Buffer;
  }
}

export function newRequestId(): string {
  return randomUUID();
}

export function requestState(req: FastifyRequest): GatewayRequestState {
  if (!req.gateway) req.gateway = { requestId: req.id ?? newRequestId() };
  return req.gateway;
}

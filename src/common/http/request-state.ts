import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ProviderAnswer } from './envelope';

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

/**
 * A service's answer for this request: its data, with its provider written into the request's state
 * for the envelope. Only the HTTP layer writes that state; a service names the provider of a failure
 * on what it throws (src/common/errors/answer-provider.ts).
 */
export function answerData<T>(req: FastifyRequest, answer: ProviderAnswer<T>): T {
  if (answer.provider !== undefined) requestState(req).provider = answer.provider;
  return answer.data;
}

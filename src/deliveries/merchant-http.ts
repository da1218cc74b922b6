import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { LookupFunction } from '../common/net/webhook-url-policy';
import { UpstreamError } from '../providers/provider-adapter';
import type { OutboundTransport } from '../providers/transport/transport';

/** What the merchant's endpoint answered, or why it did not. */
export interface MerchantAnswer {
  /** The HTTP status, or null when no response arrived (timeout, refused, reset…). */
  statusCode: number | null;
  headers: IncomingHttpHeaders;
  /** Why the attempt failed before a response, else null. */
  error: string | null;
  /**
   * The start of the answer's body: at most RESPONSE_EXCERPT_BYTES of UTF-8, cut at a whole
   * character, NUL characters dropped (PostgreSQL text cannot hold them); null when no answer came.
   * The merchant's own words, kept as they are: nothing the gateway sent is in it.
   */
  bodyExcerpt: string | null;
  /** From sending the request to the response headers and the excerpt (or to the failure). */
  latencyMs: number;
}

export interface MerchantRequest {
  url: URL;
  /** The pinned lookup from the URL policy: the socket goes to the address that was checked. */
  lookup: LookupFunction;
  headers: Record<string, string>;
  /** Exactly the bytes signed. */
  body: Buffer;
  /** The attempt's whole budget, for the error text. */
  timeoutMs: number;
  /** `performance.now()` by which the response headers must have arrived (the budget may have started before, e.g. with DNS). */
  deadline: number;
  /** Sockets per merchant host (the worker's concurrency bounds it anyway). */
  maxSockets?: number;
}

/** The pool every forward to a merchant travels on: plain agents, no client certificate. */
export const MERCHANT_WEBHOOKS_CHANNEL = 'merchant-webhooks';

/** Beyond its excerpt a merchant's answer body is not needed; reading more than this only costs memory. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** How much of a merchant's answer body is kept with an attempt, for the operator (docs/webhooks.md, Operators). */
export const RESPONSE_EXCERPT_BYTES = 1024;

export class AttemptTimeout extends Error {
  constructor(ms: number) {
    super(`timeout after ${ms} ms`);
  }
}

/**
 * POSTs one forward through the gateway's transport, which follows no redirects and reads no proxy
 * settings (a proxy would connect to an address nobody checked). The answer is the status, the
 * headers and the body's first KiB; the rest is drained up to 64 KiB and never read. Never throws:
 * no answer becomes the attempt's error text.
 */
export async function postToMerchant(transport: OutboundTransport, request: MerchantRequest): Promise<MerchantAnswer> {
  const started = performance.now();
  try {
    const answer = await transport.send({
      label: 'Merchant webhook',
      method: 'POST',
      url: request.url,
      headers: request.headers,
      body: request.body,
      channel: { key: MERCHANT_WEBHOOKS_CHANNEL, lookup: request.lookup, maxSockets: request.maxSockets },
      timeoutMs: Math.max(1, Math.round(request.deadline - performance.now())),
      maxResponseBytes: MAX_RESPONSE_BYTES,
      discardBody: true,
      excerptBytes: RESPONSE_EXCERPT_BYTES,
    });
    const bodyExcerpt = answer.text.replace(/\u0000/g, '');
    return { statusCode: answer.status, headers: answer.headers, error: null, bodyExcerpt, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return { statusCode: null, headers: {}, error: attemptError(error, request.timeoutMs), bodyExcerpt: null, latencyMs: Math.round(performance.now() - started) };
  }
}

/**
 * The one-line reason an attempt got no answer, for the attempt log: `timeout after 10000 ms` (the
 * attempt's whole budget), else the failure's code and words (`ECONNREFUSED: connect ECONNREFUSED
 * 127.0.0.1:9`, `DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate`).
 */
export function attemptError(error: unknown, timeoutMs: number): string {
  if (error instanceof AttemptTimeout) return error.message;
  if (error instanceof UpstreamError) {
    if (error.kind === 'timeout') return new AttemptTimeout(timeoutMs).message;
    return error.cause instanceof Error ? error.cause.message : error.message;
  }
  return describeNetworkError(error);
}

/** A one-line reason for an error that is not the transport's (a DNS failure in the URL policy). */
export function describeNetworkError(error: unknown): string {
  if (error instanceof AttemptTimeout) return error.message;
  const err = error as NodeJS.ErrnoException;
  const message = err?.message ?? String(error);
  return err?.code && !message.includes(err.code) ? `${err.code}: ${message}` : message;
}

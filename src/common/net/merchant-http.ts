import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { LookupFunction } from './webhook-url-policy';

/** What the merchant's endpoint answered, or why it did not. */
export interface MerchantAnswer {
  /** The HTTP status, or null when no response arrived (timeout, refused, reset…). */
  statusCode: number | null;
  headers: http.IncomingHttpHeaders;
  /** Why the attempt failed before a response, else null. */
  error: string | null;
  /** From sending the request to the response headers (or to the failure). */
  latencyMs: number;
}

export interface MerchantRequest {
  url: URL;
  /** The pinned lookup from the URL policy: the socket goes to the address that was checked. */
  lookup: LookupFunction;
  headers: Record<string, string>;
  body: Buffer;
  /** The attempt's whole budget, for the error text. */
  timeoutMs: number;
  /** `performance.now()` by which the response headers must have arrived (the budget may have started before, e.g. with DNS). */
  deadline: number;
}

/** A merchant's answer body is not needed; reading more than this only costs memory. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Idle keep-alive sockets are dropped after this long. It is under the 5 s idle timeout of Node's
 * own HTTP server (a common merchant stack), so a reused socket is rarely one the server is closing.
 */
const IDLE_SOCKET_MS = 4_000;

export class AttemptTimeout extends Error {
  constructor(ms: number) {
    super(`timeout after ${ms} ms`);
  }
}

/**
 * POSTs forwards to merchants over Node's own HTTP client, which follows no redirects and reads no
 * proxy settings from the environment (a proxy would connect to an address we never checked).
 * Keep-alive agents reuse connections to busy merchants; the deadline covers connecting, sending
 * and waiting for the response headers.
 */
export class MerchantHttpClient {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
    'https:': new https.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' }),
  };

  async post(request: MerchantRequest): Promise<MerchantAnswer> {
    const first = await this.once(request);
    // A kept-alive socket the merchant closed while it sat idle fails at once with a reset, before
    // the request could have been read: that is our connection's fault, so try a fresh one.
    if (first.staleSocket && performance.now() < request.deadline) return (await this.once(request)).answer;
    return first.answer;
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  private once(request: MerchantRequest): Promise<{ answer: MerchantAnswer; staleSocket: boolean }> {
    const { url } = request;
    const transport = url.protocol === 'https:' ? https : http;
    const agent = url.protocol === 'https:' ? this.agents['https:'] : this.agents['http:'];
    const started = performance.now();
    return new Promise((resolve) => {
      let settled = false;
      const settle = (answer: Omit<MerchantAnswer, 'latencyMs'>, staleSocket = false) => {
        if (settled) return;
        settled = true;
        resolve({ answer: { ...answer, latencyMs: Math.round(performance.now() - started) }, staleSocket });
      };
      const req = transport.request(url, {
        method: 'POST',
        agent,
        lookup: request.lookup,
        headers: { ...request.headers, 'content-length': String(request.body.length) },
      });
      const timeoutMs = Math.max(1, Math.round(request.deadline - performance.now()));
      const timer = setTimeout(() => req.destroy(new AttemptTimeout(request.timeoutMs)), timeoutMs);
      req.on('response', (res) => {
        settle({ statusCode: res.statusCode ?? null, headers: res.headers, error: null });
        // Drain the body so the socket can be reused, within the same deadline and size cap.
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('error', () => undefined);
        res.on('close', () => clearTimeout(timer));
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        settle({ statusCode: null, headers: {}, error: describeNetworkError(error) }, req.reusedSocket && error.code === 'ECONNRESET');
      });
      req.end(request.body);
    });
  }
}

/** A one-line reason for the attempt log: `timeout after 10000 ms`, `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`. */
export function describeNetworkError(error: unknown): string {
  if (error instanceof AttemptTimeout) return error.message;
  const err = error as NodeJS.ErrnoException;
  const message = err?.message ?? String(error);
  return err?.code && !message.includes(err.code) ? `${err.code}: ${message}` : message;
}

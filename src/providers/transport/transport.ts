import type { LookupFunction } from 'node:net';

export type HttpMethod = 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE';

/** What an account presents and trusts on every call to its PSP, token calls included. */
export interface MtlsMaterial {
  /** The client certificate, PEM; may carry its chain after the leaf. */
  readonly certificatePem: string;
  readonly privateKeyPem: string;
  /** Extra CA certificates to trust besides the system's (a PSP whose server chain is not public). */
  readonly caPem: string | null;
}

/**
 * Whose connections a request travels on. One connection pool (an `https.Agent`) per channel key and
 * lane, made on first use: an account's certificate lives in its pool, so mutual TLS is data on the
 * request, not a client per provider.
 */
export interface Channel {
  /** The pool's owner: a provider account's id, a provider's built-in account, `merchant-webhooks`. */
  key: string;
  /** The client certificate and extra CA of mutual TLS; a new version gets a new pool. */
  tls?: MtlsMaterial | null;
  /**
   * Separate sockets for separate budgets: callbacks' read-backs (`callbacks`) never wait for a
   * socket that a payment creation (`payments`, the default) needs, nor the reverse.
   */
  lane?: 'payments' | 'callbacks';
  /** Resolves and checks the host's address (the merchant-webhook URL policy): the socket goes where the check said. */
  lookup?: LookupFunction;
  /** Most sockets per host on this channel and lane (default 16); a new value gets a new pool. */
  maxSockets?: number;
}

/** One outbound HTTP exchange. */
export interface OutboundRequest {
  /**
   * What the call is, for messages ("Efí: create charge"). Messages never carry the URL, whose query
   * may hold an application key, nor headers or bodies, which hold tokens, secrets and payer data.
   */
  label: string;
  method: HttpMethod;
  url: URL;
  headers?: Record<string, string>;
  body?: string | Buffer;
  channel: Channel;
  /** For the whole exchange: connecting, the TLS handshake, the answer and its body. */
  timeoutMs: number;
  /** Largest body read; a larger one is an unusable answer (default 1 MiB). */
  maxResponseBytes?: number;
  /** Ends the exchange early (a sibling read-back failed; the caller stopped waiting). */
  signal?: AbortSignal;
  /**
   * The answer is its status and headers (`text` is empty): the body is drained in the background,
   * within the timeout and up to maxResponseBytes, only so the socket can be reused. For a peer
   * whose body means nothing to the gateway (a merchant's answer to a webhook).
   */
  discardBody?: boolean;
  /**
   * With discardBody: wait for the first this-many bytes of the (decoded) body, or its end, and
   * answer them as `text`, cut at a whole UTF-8 character; the rest is drained as above. A body that
   * stops early (cut off, timed out) answers what had arrived: the status is the answer either way.
   */
  excerptBytes?: number;
}

/** Any answer, whatever its status: the caller decides what is a failure. */
export interface OutboundAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body, decompressed, as UTF-8 text. */
  text: string;
}

/**
 * The one outbound HTTP client: PSP APIs, token endpoints and merchants' webhooks all go through it.
 * No answer is an UpstreamError (`timeout`, `network`, or `malformed` for a body over the cap or in
 * a coding that does not decode); redirects are answers, never followed.
 */
export abstract class OutboundTransport {
  abstract send(request: OutboundRequest): Promise<OutboundAnswer>;
  /** Closes every pool's sockets (shutdown). */
  abstract close(): void;
}

import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import axios, { type AxiosRequestConfig, type AxiosResponse, isAxiosError } from 'axios';
import { AgentPool, type AgentPoolOptions } from './agent-pool';
import { codeOf, ExchangeCancelled, exchangeFailure, ExchangeTimeout, ResponseTooLarge, UndecodableBody } from './failures';
import { nodeHttpAdapter } from './node-http-adapter';
import { type OutboundAnswer, type OutboundRequest, OutboundTransport } from './transport';

/** The part of an axios instance used; structural, since @nestjs/axios may see axios's ESM typings and this file its CommonJS ones. */
export interface AxiosClient {
  request(config: AxiosRequestConfig): Promise<unknown>;
}

export interface HttpTransportOptions extends AgentPoolOptions {
  /** The client to send with: `HttpService.axiosRef` in the application; a new axios instance by default. */
  axios?: AxiosClient;
  /** Largest body read when a request names none (default 1 MiB). */
  maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * What every call accepts unless it says otherwise. The Pix API answers JSON, and its errors as
 * RFC 7807 problems: a server that honours Accept strictly would answer 406 rather than a problem
 * to `Accept: application/json` alone. RFC 9110 section 12.5.3: a request without Accept-Encoding
 * accepts any coding, so the ones read are named.
 */
const DEFAULT_HEADERS = {
  accept: 'application/json, application/problem+json',
  'accept-encoding': 'gzip, deflate, br',
  'user-agent': 'pix-gateway',
};

/** Codes of a kept-alive socket the peer closed while it sat idle, met before any answer. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * The OutboundTransport on axios (the stack's @nestjs/axios), over the agents of AgentPool. Axios is
 * used as a plain HTTP client, through nodeHttpAdapter: no redirects followed (a redirect is an
 * answer), no proxy from the environment (it would connect to an address nobody checked), no
 * transforms (text in, text out), every status an answer. What it does not give is done here: a
 * timeout for the whole exchange, size caps on the raw and the decoded body, one more try on a
 * fresh socket, and errors that never carry axios's config.
 */
export class HttpTransport extends OutboundTransport {
  private readonly agents: AgentPool;
  private readonly axios: AxiosClient;
  private readonly maxResponseBytes: number;

  constructor(options: HttpTransportOptions = {}) {
    super();
    this.agents = new AgentPool(options);
    this.axios = options.axios ?? axios.create();
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  async send(request: OutboundRequest): Promise<OutboundAnswer> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, request.timeoutMs);
    const cancel = () => controller.abort();
    request.signal?.addEventListener('abort', cancel, { once: true });
    if (request.signal?.aborted) controller.abort();
    const release = () => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', cancel);
    };
    try {
      const response = await this.exchangeOnce(request, controller.signal).catch((error: unknown) => {
        // A kept-alive socket the peer closed while it sat idle fails before any answer: the
        // request never reached it, so it goes once more on a fresh socket, within the same time.
        if (!isStaleSocket(error) || controller.signal.aborted) throw error;
        return this.exchangeOnce(request, controller.signal);
      });
      const limit = request.maxResponseBytes ?? this.maxResponseBytes;
      const raw = rawResponseOf(response);
      if (request.discardBody) {
        // Complete at its headers (and the excerpt asked for); the body is drained (within the time and the cap) so the socket can be reused.
        const excerpt = request.excerptBytes ? firstBytes(response.data, request.excerptBytes) : undefined;
        void readBody(response, limit).then(release, () => {
          release();
          response.data.destroy();
        });
        return { status: response.status, headers: raw.headers, text: excerpt ? utf8Prefix(await excerpt, request.excerptBytes!) : '' };
      }
      const body = await readBody(response, limit);
      release();
      return { status: response.status, headers: raw.headers, text: body.toString('utf8') };
    } catch (error) {
      release();
      const reason = timedOut ? new ExchangeTimeout() : request.signal?.aborted ? new ExchangeCancelled() : error;
      throw exchangeFailure(request.label, request.timeoutMs, reason);
    }
  }

  close(): void {
    this.agents.destroy();
  }

  private async exchangeOnce(request: OutboundRequest, signal: AbortSignal): Promise<AxiosResponse<Readable>> {
    const agent = this.agents.agentFor(request.channel, request.url.protocol);
    return (await this.axios.request({
      method: request.method,
      url: request.url.href,
      headers: { ...DEFAULT_HEADERS, ...request.headers },
      data: request.body,
      httpAgent: agent,
      httpsAgent: agent,
      // Per request rather than on the agent: the merchant-webhook policy pins each attempt to the
      // address it just checked, and sockets are still shared between attempts to the same host.
      ...(request.channel.lookup ? { lookup: request.channel.lookup as never } : {}),
      signal,
      adapter: nodeHttpAdapter,
      transformRequest: [(data: unknown) => data],
      transformResponse: [(data: unknown) => data],
    })) as AxiosResponse<Readable>;
  }
}

/** The connection's own answer (status, headers as sent, the bytes before decoding). */
function rawResponseOf(response: AxiosResponse<Readable>): IncomingMessage {
  const raw = (response.request as (ClientRequest & { res?: IncomingMessage }) | undefined)?.res;
  return raw ?? (response.data as IncomingMessage);
}

function isStaleSocket(error: unknown): boolean {
  if (!isAxiosError(error) || error.response) return false;
  const request = error.request as ClientRequest | undefined;
  return request?.reusedSocket === true && STALE_SOCKET_CODES.has(codeOf(error) ?? '');
}

/**
 * The body, decoded by axios (gzip, deflate, br), at most `limit` bytes both as received and once
 * decoded: ResponseTooLarge past it, UndecodableBody when the coding does not decode, the socket's
 * error when the answer was cut off.
 */
/**
 * The first `bytes` of a stream (a few more when a chunk overshoots), once that many arrived or the
 * stream ended, failed or closed; never rejects. It only listens: readBody consumes the stream.
 */
function firstBytes(data: Readable, bytes: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      data.off('data', onData);
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= bytes) done();
    };
    data.on('data', onData);
    data.once('end', done);
    data.once('error', done);
    data.once('close', done);
  });
}

/** At most `maxBytes` of `buffer` as text, cut before a character that would not fit whole. */
export function utf8Prefix(buffer: Buffer, maxBytes: number): string {
  if (buffer.length <= maxBytes) return buffer.toString('utf8');
  let end = maxBytes;
  // A continuation byte (10xxxxxx) just past the cut means a character straddles it: cut before its lead byte.
  while (end > 0 && (buffer[end]! & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString('utf8');
}

function readBody(response: AxiosResponse<Readable>, limit: number): Promise<Buffer> {
  const data = response.data;
  const raw = rawResponseOf(response);
  const decoded = (raw as Readable) !== data;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let received = 0;
    let settled = false;
    let rawFailure: unknown;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      data.destroy();
      raw.destroy();
      reject(error);
    };
    if (decoded) {
      raw.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) fail(new ResponseTooLarge());
      });
      raw.on('error', (error) => (rawFailure ??= error));
    }
    data.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) fail(new ResponseTooLarge());
      else chunks.push(chunk);
    });
    data.on('error', (error) => {
      // The connection's own failure reaches the decoder too, after the connection saw it.
      if (rawFailure !== undefined || !decoded) fail(rawFailure ?? error);
      else fail(new UndecodableBody(error.message));
    });
    data.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks));
    });
    // Closed without its end: the connection was cut off mid-answer.
    data.on('close', () => fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' })));
  });
}

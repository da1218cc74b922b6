import { type Agent, request } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { UpstreamError } from '../provider-adapter';
import type { HttpMethod, OutboundAnswer } from '../transport/transport';

export type { HttpMethod } from '../transport/transport';

export interface HttpsCall {
  /**
   * What the call is, for messages ("Efí: create charge"). Messages never carry the URL, whose query
   * may hold an application key, nor headers or bodies, which hold tokens, secrets and payer data.
   */
  label: string;
  method: HttpMethod;
  url: URL;
  headers?: Record<string, string>;
  body?: string;
  /** The account's mTLS agent. */
  agent: Agent;
  /** For the whole exchange: connecting, the TLS handshake, the answer and its body. */
  timeoutMs: number;
  /** Largest body read; a larger one is an unusable answer (default 1 MiB). */
  maxResponseBytes?: number;
}

export type HttpsAnswer = OutboundAnswer;

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/** The timeout as thrown inside the exchange, told apart from the socket's own errors. */
class ExchangeTimeout extends Error {
  readonly code = 'ETIMEDOUT';
}

class ResponseTooLarge extends Error {
  readonly code = 'ERR_RESPONSE_TOO_LARGE';
}

/** A body whose content coding is not one asked for, or that does not decode. */
class UndecodableBody extends Error {
  readonly code = 'ERR_CONTENT_DECODING';
}

/**
 * What every call accepts. The Pix API answers JSON, and its errors as RFC 7807 problems
 * (`application/problem+json`, as the document's 4xx and 5xx responses are declared): a server that
 * honours Accept strictly would answer 406 rather than a problem to `Accept: application/json` alone.
 */
const ACCEPT = 'application/json, application/problem+json';
/**
 * RFC 9110 section 12.5.3: a request without Accept-Encoding accepts any content coding, so a PSP
 * may compress its answers in any; the ones Node decodes are named, and read.
 */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/*
 * Node's own https rather than axios (in the stack, for the simulated PSP) or undici: the mTLS material
 * lives in one `https.Agent` per account, which Node's client takes as it is; axios errors carry
 * the request's config (its Authorization header, the payer's data in the body) into whatever logs
 * them; undici's dispatcher would be a dependency for what twenty lines of `https.request` do.
 */

/**
 * One HTTPS exchange over the account's agent. Any answer comes back, whatever its status (the
 * caller decides what is a failure); no answer becomes an UpstreamError: `timeout` when the time
 * ran out, `network` when the connection or the TLS handshake failed, `malformed` for a body over
 * the limit. Every Pix API call is idempotent (PUT by txid or id, PATCH to a status, GET, and a
 * token request), so a call that meets a kept-alive socket the PSP had just closed is sent once
 * more on a fresh one.
 */
export async function httpsRequest(call: HttpsCall): Promise<HttpsAnswer> {
  try {
    return await exchange(call, true);
  } catch (error) {
    if (!(error instanceof StaleSocket)) throw error;
    return exchange(call, false);
  }
}

/** A failure on a reused socket before any answer: the PSP closed it while it sat idle. */
class StaleSocket extends Error {}

function exchange(call: HttpsCall, mayRetry: boolean): Promise<HttpsAnswer> {
  const limit = call.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return new Promise<HttpsAnswer>((resolve, reject) => {
    let answered = false;
    const req = request(call.url, {
      method: call.method,
      agent: call.agent,
      headers: {
        accept: ACCEPT,
        'accept-encoding': ACCEPT_ENCODING,
        'user-agent': 'pix-gateway',
        ...(call.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(call.body)) }),
        ...call.headers,
      },
    });
    let settled = false;
    const fail = (error: unknown) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      if (mayRetry && !answered && req.reusedSocket && isStaleSocketError(error)) reject(new StaleSocket());
      else reject(transportError(call, error));
    };
    const timer = setTimeout(() => {
      fail(new ExchangeTimeout());
      req.destroy();
    }, call.timeoutMs);
    req.on('error', fail);
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) res.destroy(new ResponseTooLarge());
        else chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        if (settled) return;
        let body: Buffer;
        try {
          body = decoded(Buffer.concat(chunks), res.headers['content-encoding'], limit);
        } catch (error) {
          fail(error);
          return;
        }
        settled = true;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: body.toString('utf8') });
      });
      // Closed without its end: the connection was cut off mid-answer.
      res.on('close', () => {
        if (!res.complete) fail(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }));
      });
    });
    req.end(call.body);
  });
}

/**
 * The body with its content codings undone (RFC 9110 section 8.4: listed in the order applied, so
 * undone from the last), at most `limit` bytes once decoded. UndecodableBody for a coding not asked
 * for or bytes that do not decode; ResponseTooLarge past the limit.
 */
function decoded(raw: Buffer, contentEncoding: string | undefined, limit: number): Buffer {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  // An empty body is empty in any coding (a 204 whose proxy still names one).
  if (raw.length === 0) return raw;
  let body = raw;
  for (const coding of codings.reverse()) {
    const decode = coding === 'gzip' || coding === 'x-gzip' ? gunzipSync : coding === 'deflate' ? inflateSync : coding === 'br' ? brotliDecompressSync : undefined;
    if (!decode) throw new UndecodableBody(`content coding ${coding.slice(0, 20)} was not asked for`);
    try {
      body = decode(body, { maxOutputLength: limit });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw new ResponseTooLarge();
      throw new UndecodableBody((error as Error).message);
    }
  }
  return body;
}

function isStaleSocketError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED';
}

/** No usable answer, as an UpstreamError whose cause keeps only the error's code and message. */
function transportError(call: HttpsCall, error: unknown): UpstreamError {
  const code = (error as { code?: unknown } | undefined)?.code;
  const cause = new Error(`${typeof code === 'string' ? code : 'error'}: ${(error as Error | undefined)?.message ?? String(error)}`);
  if (error instanceof ExchangeTimeout) {
    return new UpstreamError({ kind: 'timeout', message: `${call.label}: no answer within ${call.timeoutMs} ms`, cause });
  }
  if (error instanceof ResponseTooLarge) {
    return new UpstreamError({ kind: 'malformed', message: `${call.label}: the answer is larger than the limit`, cause });
  }
  if (error instanceof UndecodableBody) {
    return new UpstreamError({ kind: 'malformed', message: `${call.label}: the answer's content coding could not be read`, cause });
  }
  return new UpstreamError({ kind: 'network', message: `${call.label}: ${typeof code === 'string' ? code : 'connection failed'}`, cause });
}

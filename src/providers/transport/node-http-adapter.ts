import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { constants, createBrotliDecompress, createUnzip } from 'node:zlib';
import { type AxiosAdapter, AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { UndecodableBody } from './failures';

/** Decoders flush what they have at the end instead of failing on a body cut short of its trailer (as axios's own adapter does). */
const ZLIB_OPTIONS = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_OPTIONS = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };
/** The two-byte zlib header (deflate, 32 KB window, default level) a bare deflate stream is given. */
const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);

/**
 * The adapter HttpTransport gives axios: one exchange over `node:http` or `node:https`, with the
 * config's own `httpAgent`/`httpsAgent`, `lookup`, `signal`, method, headers and body, and nothing
 * else. Axios's built-in http adapter does much the transport turns off or does itself (following
 * redirects, proxies read from the environment, timeouts, size limits, buffering), and it was a
 * third of every outbound call's CPU (docs/performance.md, What was changed: Issue 43). Every
 * status is an answer; the body is left unread, decoded when its Content-Encoding is gzip, deflate
 * or br (then the header is removed, and `request.res` is the raw answer) and failing to read in
 * any other coding, for the transport to read under its caps. A failure is an AxiosError carrying
 * the socket's code, as axios's adapter gives.
 */
export const nodeHttpAdapter: AxiosAdapter = (config) =>
  new Promise<AxiosResponse>((resolve, reject) => {
    const url = new URL(config.url!);
    const secure = url.protocol === 'https:';
    const body = config.data as string | Buffer | undefined | null;
    const headers = AxiosHeaders.from(config.headers);
    // A body of known length goes with Content-Length, never chunked (some PSPs refuse chunked requests).
    if (body !== undefined && body !== null && !headers.has('content-length')) headers.set('content-length', String(Buffer.byteLength(body)));
    const options: RequestOptions = {
      method: (config.method ?? 'get').toUpperCase(),
      headers: headers.toJSON(),
      agent: (secure ? config.httpsAgent : config.httpAgent) as RequestOptions['agent'],
      signal: (config.signal as AbortSignal | undefined) ?? undefined,
      ...(config.lookup ? { lookup: config.lookup as RequestOptions['lookup'] } : {}),
    };
    const fail = (error: NodeJS.ErrnoException) => reject(AxiosError.from(error, error.code, config, request));
    const request = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
      signal?.removeEventListener('abort', abort);
      resolve({ data: decoded(res, options.method!), status: res.statusCode!, statusText: res.statusMessage ?? '', headers: res.headers, config, request });
    });
    // Node reports a request destroyed while it waits for a free socket only once it gets one: the
    // abort answers at once instead (then Node's own later error is ignored, the promise being settled).
    const signal = options.signal;
    const abort = () => fail(Object.assign(new Error('The operation was aborted'), { code: 'ABORT_ERR' }));
    signal?.addEventListener('abort', abort, { once: true });
    request.on('error', fail);
    request.end(body ?? undefined);
  });

/** The body as its Content-Encoding says to read it; the answer itself when it has none (or no body). */
function decoded(res: IncomingMessage, method: string): Readable {
  const coding = res.headers['content-encoding']?.trim().toLowerCase();
  if (!coding || coding === 'identity') return res;
  if (method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) {
    delete res.headers['content-encoding'];
    return res;
  }
  const decoders =
    coding === 'gzip' || coding === 'x-gzip'
      ? [createUnzip(ZLIB_OPTIONS)]
      : coding === 'deflate'
        ? [withZlibHeader(), createUnzip(ZLIB_OPTIONS)]
        : coding === 'br'
          ? [createBrotliDecompress(BROTLI_OPTIONS)]
          : null;
  delete res.headers['content-encoding'];
  if (!decoders) return undecodable(res, coding);
  return pipeline([res, ...decoders], () => undefined) as unknown as Readable;
}

/**
 * A body in a coding that was not asked for (Accept-Encoding names gzip, deflate and br): it is
 * drained, and reading it fails, once it is read (an error before then would reach nobody).
 */
function undecodable(res: IncomingMessage, coding: string): Readable {
  res.resume();
  return new Readable({
    read() {
      this.destroy(new UndecodableBody(`unsupported content coding ${coding.slice(0, 32)}`));
    },
  });
}

/** `deflate` is meant to be zlib-wrapped, yet some servers send bare deflate: that is given a zlib header (as axios's adapter does). */
function withZlibHeader(): Transform {
  let first = true;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      if (first && chunk.length > 0) {
        first = false;
        if (chunk[0] !== ZLIB_HEADER[0]) this.push(ZLIB_HEADER);
      }
      done(null, chunk);
    },
  });
}

import { UpstreamError } from '../provider-adapter';

/** The exchange's own reasons for having no usable answer; anything else thrown is the socket's, TLS's or the peer's. */
export class ExchangeTimeout extends Error {
  readonly code = 'ETIMEDOUT';
}

export class ExchangeCancelled extends Error {
  readonly code = 'ABORT_ERR';
}

export class ResponseTooLarge extends Error {
  readonly code = 'ERR_RESPONSE_TOO_LARGE';
}

/** A body whose content coding does not decode. */
export class UndecodableBody extends Error {
  readonly code = 'ERR_CONTENT_DECODING';
}

/**
 * One line for an error: its code and its message, `ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`
 * (the code once, when the message does not already say it). Nothing else of the error is read: an
 * axios error carries its config, whose headers hold tokens, body payer data and URL app keys.
 */
export function errorLine(error: unknown): string {
  const code = codeOf(error);
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const message = raw.trim() === '' ? (code ?? 'error') : raw;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

export function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code !== '' ? code : undefined;
}

/** The codes of a call that failed before sending anything: a refused connection, a failed lookup, a failed handshake. */
const NOTHING_SENT =
  /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ERR_TLS_\w+|ERR_SSL_\w+|CERT_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_\w+|ERR_INVALID_URL|EPROTO)\b/;

/**
 * The one mapping of "no usable answer" to an UpstreamError: `timeout` when the time ran out,
 * `malformed` for a body over the limit or in a coding that does not decode, `network` for
 * anything else (refused, reset, DNS, the TLS handshake, cancelled; `beforeSending` when nothing
 * can have reached the PSP). The message names the call
 * (`label`) and the code; the cause is a fresh Error holding only errorLine().
 */
export function exchangeFailure(label: string, timeoutMs: number, error: unknown): UpstreamError {
  const cause = new Error(errorLine(error));
  if (error instanceof ExchangeTimeout) {
    return new UpstreamError({ kind: 'timeout', message: `${label}: no answer within ${timeoutMs} ms`, cause });
  }
  if (error instanceof ResponseTooLarge) {
    return new UpstreamError({ kind: 'malformed', message: `${label}: the answer is larger than the limit`, cause });
  }
  if (error instanceof UndecodableBody) {
    return new UpstreamError({ kind: 'malformed', message: `${label}: the answer's content coding could not be read`, cause });
  }
  if (error instanceof ExchangeCancelled) {
    return new UpstreamError({ kind: 'network', message: `${label}: cancelled`, cause });
  }
  const code = codeOf(error);
  return new UpstreamError({ kind: 'network', message: `${label}: ${code ?? 'connection failed'}`, cause, beforeSending: NOTHING_SENT.test(cause.message) });
}

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { performance } from 'node:perf_hooks';
import type { LookupFunction } from '../common/net/webhook-url-policy';

export interface CallbackRequest {
  url: URL;
  /** The URL policy's pinned lookup: the socket goes to the address that was checked. */
  lookup: LookupFunction;
  headers: Record<string, string>;
  /** Exactly the bytes signed. */
  body: Buffer;
  /** The post's whole budget, for the error text. */
  timeoutMs: number;
  /** `performance.now()` by which the answer must have come (the budget started before, with DNS). */
  deadline: number;
}

/** What the notification URL answered: its status, or why no answer came. */
export interface CallbackAnswer {
  /** The HTTP status, or null when no answer arrived (timeout, refused, reset…). */
  statusCode: number | null;
  /** Why no answer came, for the log; null with a status. */
  error: string | null;
}

/** The PSP reads nothing of an answer's body: past this much it stops draining it. */
const MAX_DRAINED_BYTES = 64 * 1024;

/**
 * POSTs one callback with the simulated PSP's own client (it depends on none of the gateway's): a
 * connection of its own (no pool to close), pinned to the checked address, no proxy from the
 * environment, no redirect followed (a redirect is an answer). Answered at the status line; the
 * body is drained in the background, within the budget and 64 KiB, then the connection is dropped.
 * Never throws: no answer in time is an error text.
 */
export function postCallback(call: CallbackRequest): Promise<CallbackAnswer> {
  return new Promise((resolve) => {
    const send = call.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers = { ...call.headers, 'content-length': String(call.body.length) };
    const request = send(call.url, { method: 'POST', headers, lookup: call.lookup, agent: false }, (response) => {
      resolve({ statusCode: response.statusCode ?? null, error: null });
      let drained = 0;
      response.on('data', (chunk: Buffer) => {
        drained += chunk.length;
        if (drained > MAX_DRAINED_BYTES) request.destroy();
      });
      // Cut off while draining: the answer was already given.
      response.on('error', () => undefined);
    });
    const timer = setTimeout(() => request.destroy(new CallbackTimeout(call.timeoutMs)), Math.max(1, Math.round(call.deadline - performance.now())));
    request.once('error', (error) => resolve({ statusCode: null, error: networkReason(error) }));
    request.once('close', () => clearTimeout(timer));
    request.end(call.body);
  });
}

class CallbackTimeout extends Error {
  constructor(ms: number) {
    super(`timeout after ${ms} ms`);
  }
}

/** A one-line reason: the failure's code and words (`ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9`), the code once. */
export function networkReason(error: unknown): string {
  const err = error as NodeJS.ErrnoException;
  const message = err?.message ?? String(error);
  return err?.code && !message.includes(err.code) ? `${err.code}: ${message}` : message;
}

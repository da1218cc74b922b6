import type { InboundWebhook } from '../provider-adapter';
import { UpstreamError } from '../provider-adapter';
import { jsonOf } from '../shared/answers';
import type { OutboundAnswer } from '../transport/transport';

/** Helpers the sandbox adapter's payments and recurrences share (sandbox.adapter.ts, sandbox-recurring.ts). */

/** What the recurring calls are labelled (`Sandbox <operation>` in errors and logs). */
export type SandboxRecurringOperation =
  | 'create recurrence'
  | 'get recurrence'
  | 'cancel recurrence'
  | 'create recurring charge'
  | 'get recurring charge'
  | 'cancel recurring charge'
  | 'retry recurring charge'
  | 'simulate';

/** One HTTP exchange with the simulated PSP, labelled `Sandbox <operation>` (SandboxAdapter.call). */
export type SandboxCall = (
  operation: SandboxRecurringOperation,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: unknown,
  headers?: Record<string, string>,
) => Promise<OutboundAnswer>;

/**
 * An answer of the wrong status: a non-2xx is an `http` failure carrying the sandbox's own error
 * code and message when its body has them (`{error:{code, message}}`); an unexpected 2xx is malformed.
 */
export function unexpectedStatus(operation: string, response: OutboundAnswer): UpstreamError {
  const status = response.status;
  if (status >= 200 && status < 300) return new UpstreamError({ kind: 'malformed', message: `Sandbox ${operation}: unexpected HTTP ${status}`, upstreamStatus: status });
  const error = (jsonOf(response) as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const message = typeof error?.message === 'string' ? error.message : undefined;
  return new UpstreamError({
    kind: 'http',
    message: `Sandbox ${operation}: HTTP ${status}${code ? ` ${code}` : ''}`,
    upstreamStatus: status,
    providerCode: code,
    providerMessage: message,
  });
}

/** null for null/absent, a Date for an ISO timestamp, undefined for anything else. */
export function optionalDate(value: unknown): Date | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function header(headers: InboundWebhook['headers'], name: string): string | string[] | undefined {
  if (name in headers) return headers[name];
  // Node lower-cases header names; a hand-built request might not.
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

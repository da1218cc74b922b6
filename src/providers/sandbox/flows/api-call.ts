import { type ChargeLookup, UpstreamError } from '../../provider-adapter';
import { jsonOf, settle } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';

/** What each call is labelled (`Sandbox <operation>` in errors and logs). */
export type SandboxOperation =
  | 'create'
  | 'get'
  | 'cancel'
  | 'update'
  | 'create batch'
  | 'get batch'
  | 'refund'
  | 'get refund'
  | 'health'
  | 'simulate'
  | 'create recurrence'
  | 'get recurrence'
  | 'cancel recurrence'
  | 'create recurring charge'
  | 'get recurring charge'
  | 'cancel recurring charge'
  | 'retry recurring charge';

/** One call to the simulated PSP as a flow describes it: the route under its base URL, and its body. */
export interface SandboxCall {
  operation: SandboxOperation;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  /** Relative to the base URL, already encoded (`/charges/sbx_1`). */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The largest answer read, when more than the adapter's usual limit (a batch of 1,000 charges read back). */
  maxResponseBytes?: number;
}

/** Sends a call (SandboxAdapter's, on the gateway's transport); flows build calls and parse answers, never send. */
export type SendSandboxCall = (call: SandboxCall) => Promise<OutboundAnswer>;

/** A path segment, encoded. */
export const segment = (value: string): string => encodeURIComponent(value);

/** The simulated PSP finds a charge by its own id, or by the txid before the gateway learnt the id. */
export const chargeRef = (ref: ChargeLookup): string => ref.providerPaymentId ?? ref.txid;

/**
 * An answer of the wrong status: a non-2xx is an `http` failure carrying the simulated PSP's own
 * error code and message when its body has them (`{error:{code, message}}`); an unexpected 2xx is
 * malformed.
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

/** `read(response)` when the answer has one of the `expected` statuses; the UpstreamError it throws, or the status's, returned. */
export function parseAnswer<T>(
  operation: SandboxOperation,
  response: OutboundAnswer,
  expected: readonly number[],
  read: (operation: SandboxOperation, response: OutboundAnswer) => T,
): T | UpstreamError {
  if (!expected.includes(response.status)) return unexpectedStatus(operation, response);
  return settle(() => read(operation, response));
}

export { orThrow } from '../../support/answers';

/**
 * The one way the dashboard talks to the gateway: same-origin fetch with the session cookie, the
 * CSRF token on every change, and every failure turned into an ApiError whose message is a
 * sentence for a person (never the JSON the API answered).
 */

export interface FieldProblem {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldProblem[] = [],
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The problem with one form field, if the API named one. */
  fieldMessage(field: string): string | undefined {
    return this.fields.find((f) => f.field === field)?.message;
  }
}

let csrfToken: string | null = null;
let onSessionLost: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the gateway says the session is gone (expired, signed out elsewhere). */
export function onUnauthorized(handler: () => void): void {
  onSessionLost = handler;
}

interface ErrorBody {
  code?: string;
  message?: string;
  upstream_status?: number;
  details?: { fields?: FieldProblem[]; provider_message?: string };
}

function sentence(status: number, error: ErrorBody | undefined, requestId?: string): string {
  const reference = requestId ? ` (reference ${requestId})` : '';
  switch (error?.code) {
    case 'VALIDATION_ERROR': {
      const fields = error.details?.fields ?? [];
      if (fields.length === 0) return error.message ?? 'Some of the values are not valid.';
      return `Please check: ${fields.map((f) => f.message).join('; ')}.`;
    }
    case 'UNAUTHORIZED':
      return error.message && !/bearer/i.test(error.message) ? error.message : 'Your session has ended. Please sign in again.';
    case 'NOT_FOUND':
      return error.message ?? 'That item no longer exists.';
    case 'UPSTREAM_ERROR':
    case 'PAYMENT_CREATE_FAILED':
      return `The payment provider did not accept this${error.upstream_status ? ` (it answered ${error.upstream_status})` : ''}: ${(error.details?.provider_message ?? error.message ?? 'unknown error').replace(/\.$/, '')}.`;
    case 'INTERNAL_ERROR':
      return `Something went wrong inside the gateway${reference}. Please try again; if it keeps happening, check the gateway's logs.`;
    case undefined:
      if (status === 0) return 'The gateway could not be reached. Check your connection and try again.';
      if (status >= 500) return `The gateway answered with an error (${status})${reference}. Please try again.`;
      return `The gateway refused the request (${status}).`;
    default:
      return error?.message ?? `The gateway refused the request (${status}).`;
  }
}

export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { ...extraHeaders, accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(`/admin/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'NETWORK', sentence(0, undefined));
  }
  let payload: { success?: boolean; data?: T; error?: ErrorBody; request_id?: string } | undefined;
  try {
    payload = (await response.json()) as typeof payload;
  } catch {
    payload = undefined;
  }
  if (response.ok && payload?.success) return payload.data as T;
  const error = payload?.error;
  const failure = new ApiError(
    response.status,
    error?.code ?? 'HTTP_ERROR',
    sentence(response.status, error, payload?.request_id),
    error?.details?.fields ?? [],
    payload?.request_id,
  );
  if (response.status === 401 && path !== '/session') onSessionLost?.();
  return Promise.reject(failure);
}

/** A query string from the values that are set. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

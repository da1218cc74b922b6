import { type AccountSettings, CredentialsError, UpstreamError } from '../../provider-adapter';
import { httpFailure, unexpectedAnswer } from '../../support/answers';
import type { HttpMethod, OutboundAnswer, OutboundRequest } from '../../transport/transport';
import { mpProblemOf } from '../wire';

/**
 * Mercado Pago's API host, the same for test and production credentials (the credentials decide):
 * https://github.com/mercadopago/sdk-nodejs/blob/master/src/utils/config/index.ts (`BASE_URL`).
 */
export const MERCADO_PAGO_API = 'https://api.mercadopago.com';

export type MercadoPagoOperation =
  'create payment' | 'read payment' | 'search payments' | 'cancel payment' | 'create refund' | 'read refund' | 'list refunds' | 'find refund' | 'check';

/** One call as a flow describes it: the route relative to the API base, and its body. */
export interface MpCall {
  operation: MercadoPagoOperation;
  method: HttpMethod;
  /** Relative to the API base, already encoded (`/v1/payments/123`). */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The OutboundRequest of a call, without its channel and timeout (the adapter's). */
export type BuiltRequest = Pick<OutboundRequest, 'label' | 'method' | 'url' | 'headers' | 'body'>;

export function labelOf(operation: MercadoPagoOperation): string {
  return `Mercado Pago: ${operation}`;
}

/** The account's API base (no trailing slash): its own `base_url`, else Mercado Pago's host. Https only. */
export function apiBaseOf(settings: Pick<AccountSettings, 'baseUrl'>): string {
  const base = settings.baseUrl ?? MERCADO_PAGO_API;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new CredentialsError('base_url', 'is not a URL');
  }
  if (url.protocol !== 'https:') throw new CredentialsError('base_url', 'must be an https URL');
  return base.replace(/\/+$/, '');
}

/** The request of a call: the bearer access token, JSON both ways. */
export function mpRequest(settings: Pick<AccountSettings, 'baseUrl'>, accessToken: string, call: MpCall): BuiltRequest {
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return {
    label: labelOf(call.operation),
    method: call.method,
    url: new URL(`${apiBaseOf(settings)}${call.path}`),
    body,
    headers: {
      accept: 'application/json',
      ...call.headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      authorization: `Bearer ${accessToken}`,
    },
  };
}

/** A non-2xx answer as an UpstreamError `http`, with Mercado Pago's `cause` code and words. */
export const mpFailure = (label: string, answer: OutboundAnswer): UpstreamError => httpFailure(label, answer, mpProblemOf);

/** An answer whose status is not one of `expected`: `http` when it is not 2xx, `malformed` when it is an unexpected 2xx. */
export const unexpected = (label: string, answer: OutboundAnswer): UpstreamError => unexpectedAnswer(label, answer, mpProblemOf);

export { orThrow, settle } from '../../support/answers';

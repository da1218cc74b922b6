import { type Account, type AccountSettings, CredentialsError, type UpstreamError } from '../../provider-adapter';
import { problemOf, type ProviderProblem, unexpectedAnswer } from '../../support/answers';
import type { HttpMethod, OutboundAnswer, OutboundRequest } from '../../transport/transport';
import type { PixApiCredentials } from '../credentials';
import type { PixApiOperation, PixApiProfile, RequestContext } from '../profile';

/** One Pix API call as a flow describes it: the route relative to the API base, and its body. */
export interface ApiCall {
  operation: PixApiOperation;
  method: HttpMethod;
  /** Relative to the API base, already encoded (`/cob/{txid}`). */
  path: string;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

/** Where an account's calls go: its API base (no trailing slash) and token URL. */
export interface Endpoints {
  apiBase: string;
  /** The account gave its own `base_url`: taken as given for every route. */
  overridden: boolean;
  tokenUrl: string;
}

/** The OutboundRequest of an API call, without its channel and timeout (the adapter's). */
export type BuiltRequest = Pick<OutboundRequest, 'label' | 'method' | 'url' | 'headers' | 'body'>;

/** "Efí: create charge": what messages and the transport call an exchange. */
export function labelOf(profile: PixApiProfile, operation: PixApiOperation | 'token'): string {
  return `${profile.displayName}: ${operation}`;
}

/** The account's API base and token URL: its own overrides, else the profile's for its environment. */
export function endpointsOf(profile: PixApiProfile, settings: AccountSettings): Endpoints {
  const apiBase = settings.baseUrl ?? profile.apiBase[settings.environment];
  const tokenUrl = settings.tokenUrl ?? profile.tokenUrl[settings.environment];
  const where = `${profile.displayName} has no ${settings.environment} address the gateway can use`;
  if (!apiBase) throw new CredentialsError('base_url', `is required: ${where}`);
  if (!tokenUrl) throw new CredentialsError('token_url', `is required: ${where}`);
  httpsUrl(apiBase, 'base_url');
  httpsUrl(tokenUrl, 'token_url');
  return { apiBase: apiBase.replace(/\/+$/, ''), overridden: settings.baseUrl !== null, tokenUrl };
}

/** The account's Pix key, which every charge and webhook names. */
export function pixKeyOf(profile: PixApiProfile, account: Account<PixApiCredentials>): string {
  if (!account.pixKey) throw new CredentialsError('pix_key', `is required: ${profile.displayName} charges are made to the account's Pix key`);
  return account.pixKey;
}

/** An API call with the profile's route base, query and headers, and the bearer token. */
export function apiRequest(profile: PixApiProfile, account: Account<PixApiCredentials>, call: ApiCall, token: string): BuiltRequest {
  const context: RequestContext = { operation: call.operation, environment: account.environment, credentials: account.credentials };
  const { apiBase, overridden } = endpointsOf(profile, account);
  const base = overridden || !profile.routeBase ? apiBase : profile.routeBase(call.operation, apiBase);
  const url = new URL(`${base}${call.path}`);
  for (const [name, value] of Object.entries({ ...profile.query?.(context), ...call.query })) url.searchParams.set(name, value);
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  return {
    label: labelOf(profile, call.operation),
    method: call.method,
    url,
    body,
    headers: {
      ...profile.headers?.(context),
      ...call.headers,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      authorization: `Bearer ${token}`,
    },
  };
}

export { orThrow, settle } from '../../support/answers';

/**
 * The PSP's code and words in a refusal: the standard's problem (and the other shapes problemOf
 * reads), or Efí's own `{"nome", "mensagem"}`, which it answers on its Pix routes
 * (https://dev.efipay.com.br/docs/api-pix/gestao-de-pix/, the examples of the 400 and 500 answers).
 */
export function pixApiProblemOf(body: unknown): ProviderProblem {
  const standard = problemOf(body);
  if (standard.code !== undefined || typeof body !== 'object' || body === null || Array.isArray(body)) return standard;
  const { nome, mensagem } = body as Record<string, unknown>;
  if (typeof nome !== 'string' || nome.trim() === '') return standard;
  // Its `mensagem` is what problemOf reads as a bare `message` (trimmed, and cut as every PSP's words are).
  return { code: nome.trim(), message: problemOf({ message: mensagem }).message };
}

/** An answer a flow did not expect, with the PSP's code and words where its body has them. */
export function pixApiFailure(label: string, answer: OutboundAnswer): UpstreamError {
  return unexpectedAnswer(label, answer, pixApiProblemOf);
}

/** A refusal that says something about the resource (not the credentials, not "no such route"): worth a read-back. */
export function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 404 && status !== 429;
}

/** At most `max` UTF-16 units, never cutting a character in two. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const char of text) {
    if (out.length + char.length > max) break;
    out += char;
  }
  return out;
}

function httpsUrl(value: string, field: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CredentialsError(field, 'is not a URL');
  }
  if (url.protocol !== 'https:') throw new CredentialsError(field, 'must be an https URL (the Pix API is mutual TLS)');
}
